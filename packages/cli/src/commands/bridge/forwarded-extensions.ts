// Extensions a forwarding server passes on as they are: those whose methods mean the same in both
// eras (skills, SEP-2640: `skills/list`, `skills/get`, `resources/directory/read`). Each is declared
// to the forwarder's clients only when the upstream declared it, with the upstream's own settings.

import type { JsonObject, ServerCapabilities } from 'mcpwire';
import { skills, SKILLS_EXTENSION_ID, SKILLS_METHODS } from 'mcpwire/extensions/skills';
import type { ClientExtension } from 'mcpwire/client';
import type { RequestContext, ServerExtension } from 'mcpwire/server';

/** How a forwarded request reaches the upstream. */
type Forward = (method: string, params: JsonObject, ctx: RequestContext) => Promise<JsonObject>;

/** The extensions passed through, by id, with the methods they add. */
const PASSED_THROUGH = [{ id: SKILLS_EXTENSION_ID, methods: SKILLS_METHODS }] as const;

/**
 * The client side of every extension passed through: a `Client` to the upstream takes these, so it
 * knows their methods (and declares them, as the forwarder's own clients may use them).
 */
export function passedThroughClientExtensions(): ClientExtension[] {
  return [skills()];
}

/**
 * The server side of each extension the upstream declared (`capabilities.extensions`) and the
 * forwarder passes through: its methods answered by `forward`, its settings the upstream's.
 */
export function passedThroughExtensions(upstream: ServerCapabilities, forward: Forward): ServerExtension[] {
  const declared = (upstream as { extensions?: Record<string, unknown> }).extensions ?? {};
  return PASSED_THROUGH.flatMap(({ id, methods }) => {
    const settings = declared[id];
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return [];
    const handlers = Object.fromEntries(
      Object.keys(methods).map((method) => [
        method,
        (params: JsonObject, ctx: RequestContext) => forward(method, params, ctx),
      ]),
    );
    const copy = { ...(settings as JsonObject) };
    return [{ id, methods, server: { handlers, settings: () => ({ ...copy }) } }];
  });
}
