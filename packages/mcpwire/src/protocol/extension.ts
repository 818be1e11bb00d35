// An extension as a value (S26-EXT): its id, the methods it describes, the `_meta` keys it owns, and a
// part for each side. The core knows only this shape; each extension lives in its own folder.

import type { MethodSpec } from './method-spec.ts';

/**
 * One extension. `server` is what a Server takes (handlers, capability settings, registrations) and
 * `client` what a Client takes (its capability settings); either may be absent. The parts' types
 * are the sides' business (`ServerExtensionPart` in the server layer, `ClientExtensionPart` in the
 * client's), so this layer stays free of both.
 */
export interface Extension<ServerPart = unknown, ClientPart = unknown> {
  /** The id under `capabilities.extensions` (S26-EXT-1): a `_meta`-style key with a mandatory prefix. */
  readonly id: string;
  /** The methods it adds, each described once (use `describeMethod`); gates name `extensions.<id>`. */
  readonly methods: Readonly<Record<string, MethodSpec>>;
  /** The `_meta` key prefix it owns (e.g. `io.modelcontextprotocol.skills/`), for documentation and lint. */
  readonly metaPrefix?: string;
  readonly server?: ServerPart;
  readonly client?: ClientPart;
}

/** One label of the reverse-DNS prefix, and the name after the first `/`. */
const ID_LABEL = /^[a-z0-9-]+$/;
const ID_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/**
 * `reverse.dns/name` or `reverse.dns/name/sub`: the prefix is mandatory (S26-EXT-1): two or more
 * labels, the first starting with a letter. Checked in parts, each linear in the id's length.
 */
function isExtensionId(id: string): boolean {
  const slash = id.indexOf('/');
  if (slash === -1) return false;
  const labels = id.slice(0, slash).split('.');
  return (
    labels.length >= 2 &&
    /^[a-z]/.test(labels[0]!) &&
    labels.every((label) => ID_LABEL.test(label)) &&
    ID_NAME.test(id.slice(slash + 1))
  );
}

/**
 * Checks and returns an extension value. Throws TypeError for an id without a reverse-DNS prefix or
 * a method whose row does not say who sends it. Pure: call it at module scope.
 */
export function defineExtension<const E extends Extension>(extension: E): E {
  if (!isExtensionId(extension.id)) {
    throw new TypeError(
      `Invalid extension id "${extension.id}": expected a prefixed name such as "io.modelcontextprotocol/skills" or "com.example/feature"`,
    );
  }
  for (const [method, spec] of Object.entries(extension.methods)) {
    if (spec.kind !== 'request' && spec.kind !== 'notification')
      throw new TypeError(`Extension "${extension.id}": "${method}" must be a request or a notification`);
  }
  return extension;
}

/** The gate of an extension's methods: the `extensions.<id>` capability of `side` (optionally a flag in it). */
export function extensionGate(
  side: 'client' | 'server',
  id: string,
  flag?: string,
): NonNullable<MethodSpec['gate']> {
  return { side, path: flag === undefined ? ['extensions', id] : ['extensions', id, flag] };
}
