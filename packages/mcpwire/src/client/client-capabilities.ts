// The capabilities a client declares at initialize, derived from the handlers it was given (SAMP-1, ELIC-1, ROOT-1).

import type { JsonObject } from '../jsonrpc/message.ts';
import { hasFeature, isStatelessVersion } from '../protocol/revisions.ts';
import type { ClientCapabilities } from '../protocol/types/index.ts';

/** An elicitation mode (ELIC-1): a form the client renders, or a URL the user visits. */
export type ElicitationMode = 'form' | 'url';

/** What the declaration is derived from. */
export interface CapabilitySources {
  /** Declared as given; a key set here wins over the derived one (e.g. `sampling: { tools: {} }`). */
  extra: ClientCapabilities | undefined;
  hasSampling: boolean;
  hasElicitation: boolean;
  /** Elicitation modes to declare; default both. */
  elicitationModes: readonly ElicitationMode[] | undefined;
  hasRoots: boolean;
  /** The revision the client will request; revisions before URL mode get `elicitation: {}`. */
  protocolVersion: string;
}

/**
 * The client's capability object: `extra`, plus `sampling: {}` for a sampling handler,
 * `elicitation: {form: {}, url: {}}` (or the chosen modes) for an elicitation handler, and
 * `roots: {listChanged: true}` when roots are served. Returns a new object.
 */
export function createClientCapabilities(sources: CapabilitySources): ClientCapabilities {
  const declared: ClientCapabilities = { ...sources.extra };
  if (sources.hasSampling) declared.sampling = { ...declared.sampling };
  // A revision without elicitation must not be told we do it (the client would then refuse it).
  if (
    sources.hasElicitation &&
    declared.elicitation === undefined &&
    hasFeature(sources.protocolVersion, 'elicitation')
  ) {
    declared.elicitation = elicitationCapability(
      sources.elicitationModes ?? ['form', 'url'],
      sources.protocolVersion,
    );
  }
  // 2026-07-28 removed roots.listChanged: roots are asked for per request there.
  if (sources.hasRoots)
    declared.roots = isStatelessVersion(sources.protocolVersion)
      ? { ...declared.roots }
      : { listChanged: true, ...declared.roots };
  return declared;
}

function elicitationCapability(
  modes: readonly ElicitationMode[],
  version: string,
): NonNullable<ClientCapabilities['elicitation']> {
  if (modes.length === 0) throw new TypeError('elicitationModes must name at least one mode (ELIC-1)');
  // Before 2025-11-25 the capability had no sub-objects and meant form only (section 3 of the spec notes).
  if (!hasFeature(version, 'elicitationUrl')) {
    if (!modes.includes('form'))
      throw new TypeError(
        `Protocol revision ${version} has form-mode elicitation only; elicitationModes ${JSON.stringify(modes)} leaves nothing to declare`,
      );
    return {};
  }
  const declared: { form?: JsonObject; url?: JsonObject } = {};
  if (modes.includes('form')) declared.form = {};
  if (modes.includes('url')) declared.url = {};
  return declared;
}

/** The elicitation modes a declared capability allows: `{}` means form only (ELIC-1). */
export function declaredElicitationModes(capabilities: JsonObject): ElicitationMode[] {
  const elicitation = capabilities.elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return [];
  const record = elicitation as Record<string, unknown>;
  const modes: ElicitationMode[] = [];
  if (isDeclared(record.form)) modes.push('form');
  if (isDeclared(record.url)) modes.push('url');
  return modes.length === 0 && !('form' in record) && !('url' in record) ? ['form'] : modes;
}

function isDeclared(value: unknown): boolean {
  return value === true || (typeof value === 'object' && value !== null);
}
