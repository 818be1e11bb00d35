// What `mcpwire check` and `mcpwire pin` look at: every tool, prompt, resource and resource template
// a server lists (all pages), each with the key that identifies it, capped in depth before any walk.

import type { Client } from 'mcpwire/client';
import { capDepth } from '../wire/json-depth.ts';

/** The four kinds of definition a server lists. */
export type DefinitionKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate';

/** One listed definition. */
export interface Definition {
  kind: DefinitionKind;
  /** What identifies it: the name of a tool or prompt, the `uri` of a resource, the `uriTemplate` of a template. */
  name: string;
  /** The definition as listed, objects nested deeper than MAX_JSON_DEPTH cut (json-depth.ts). */
  value: Record<string, unknown>;
}

/** What a server offers, as `check` and `pin` see it. */
export interface ServerListing {
  server: { name: string; version: string };
  /** The negotiated protocol revision, e.g. `2025-11-25`. */
  protocolVersion: string;
  definitions: Definition[];
  /** With `relist`: the tools and prompts listed a second time, right after the first listing. */
  relisted?: Definition[];
}

/** The plural each kind has in a summary line. */
export const KIND_PLURALS: Record<DefinitionKind, [string, string]> = {
  tool: ['tool', 'tools'],
  prompt: ['prompt', 'prompts'],
  resource: ['resource', 'resources'],
  resourceTemplate: ['resource template', 'resource templates'],
};

/**
 * Lists every kind the server declares a capability for, following every page, in the order tools,
 * prompts, resources, resource templates; with `relist`, then the tools and prompts once more.
 * Rejects as the first failed request does.
 */
export async function listDefinitions(
  client: Client,
  options: { signal: AbortSignal; relist?: boolean },
): Promise<ServerListing> {
  const capabilities = client.serverCapabilities ?? {};
  const request = { signal: options.signal };
  const definitions: Definition[] = [];
  if (capabilities.tools !== undefined) add(definitions, 'tool', await client.listAllTools(request));
  if (capabilities.prompts !== undefined) add(definitions, 'prompt', await client.listAllPrompts(request));
  if (capabilities.resources !== undefined) {
    add(definitions, 'resource', await client.listAllResources(request));
    add(definitions, 'resourceTemplate', await client.listAllResourceTemplates(request));
  }
  const info = client.serverInfo;
  const listing: ServerListing = {
    server: { name: info?.name ?? '', version: info?.version ?? '' },
    protocolVersion: client.protocolVersion ?? '',
    definitions,
  };
  if (options.relist === true) {
    const relisted: Definition[] = [];
    if (capabilities.tools !== undefined) add(relisted, 'tool', await client.listAllTools(request));
    if (capabilities.prompts !== undefined) add(relisted, 'prompt', await client.listAllPrompts(request));
    listing.relisted = relisted;
  }
  return listing;
}

/** The property that identifies each kind. */
const KEYS: Record<DefinitionKind, string> = {
  tool: 'name',
  prompt: 'name',
  resource: 'uri',
  resourceTemplate: 'uriTemplate',
};

function add(into: Definition[], kind: DefinitionKind, items: readonly unknown[]): void {
  for (const item of items) {
    const value = capDepth(item) as Record<string, unknown>;
    const name = value[KEYS[kind]];
    into.push({ kind, name: typeof name === 'string' ? name : '', value });
  }
}
