// What a handshake-era child sees of a 2026-07-28 client's capabilities (era-front.ts). A 2025
// server reads its client's input capabilities once, at `initialize`, and adapts to them (a tool
// asks only for what the client can answer, SEP-2322); a 2026-07-28 client declares them on every
// request. So the front keeps a child per distinct set of input capabilities, each initialized
// with exactly that set: the child sees what the client declared, never more.

import type { JsonObject } from 'mcpwire';
import type { ElicitationMode } from 'mcpwire/client';

/** The input capabilities a child is initialized with: all the handshake era has of the client's. */
export interface InputCapabilities {
  /** Elicitation modes (form, url); undefined: no elicitation. */
  readonly elicitation: readonly ElicitationMode[] | undefined;
  /** `sampling` with its known flags (`context`, `tools`); undefined: no sampling. */
  readonly sampling: { context?: JsonObject; tools?: JsonObject } | undefined;
  readonly roots: boolean;
}

const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/**
 * The input capabilities a stateless-era request declares (its envelope's client capabilities):
 * only the known keys are read, one level deep, so a hostile request cannot make more than
 * 4 x 5 x 2 distinct sets (at most that many children).
 */
export function inputCapabilitiesOf(params: unknown): InputCapabilities {
  const meta = field(params, '_meta');
  const declared = field(meta, CLIENT_CAPABILITIES);
  const elicitation = field(declared, 'elicitation');
  const sampling = field(declared, 'sampling');
  return {
    elicitation: elicitation === undefined ? undefined : elicitationModes(elicitation),
    sampling:
      sampling === undefined
        ? undefined
        : {
            ...(field(sampling, 'context') === undefined ? {} : { context: {} }),
            ...(field(sampling, 'tools') === undefined ? {} : { tools: {} }),
          },
    roots: field(declared, 'roots') !== undefined,
  };
}

/** One text per distinct set: the key of its child. */
export function inputCapabilitiesKey(capabilities: InputCapabilities): string {
  return JSON.stringify([
    capabilities.elicitation ?? null,
    capabilities.sampling === undefined ? null : Object.keys(capabilities.sampling),
    capabilities.roots,
  ]);
}

/** ELIC-1: `{}` (no mode named) means form only. */
function elicitationModes(elicitation: JsonObject): ElicitationMode[] {
  const modes: ElicitationMode[] = [];
  if (field(elicitation, 'form') !== undefined) modes.push('form');
  if (field(elicitation, 'url') !== undefined) modes.push('url');
  return modes.length === 0 ? ['form'] : modes;
}

/** `value[key]` when both are JSON objects; else undefined. */
function field(value: unknown, key: string): JsonObject | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const found = (value as Record<string, unknown>)[key];
  return typeof found === 'object' && found !== null && !Array.isArray(found)
    ? (found as JsonObject)
    : undefined;
}
