// Capability objects: reading a negotiated capability path, and the local error for a missing one.

import type { CapabilityGate } from './method-spec.ts';

/** True if `capabilities` declares the object at `path` (e.g. ['resources', 'subscribe']). */
export function hasCapability(capabilities: object | undefined, path: readonly string[]): boolean {
  let node: unknown = capabilities;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[key];
  }
  // Sub-flags are objects ({}) in newer revisions and booleans (listChanged, subscribe) in all of them.
  return node === true || (typeof node === 'object' && node !== null);
}

/** Human form of a gate, e.g. `server capability "resources.subscribe"`. */
export function describeGate(gate: CapabilityGate): string {
  return `${gate.side} capability "${gate.path.join('.')}"`;
}

/**
 * A local error: this side tried to use a feature the peer (or this side) did not negotiate
 * (LIFE-11). Never sent on the wire.
 */
export class CapabilityNotNegotiatedError extends Error {
  readonly code = 'CAPABILITY_NOT_NEGOTIATED';
  readonly method: string;
  readonly capability: string;

  constructor(method: string, gate: CapabilityGate) {
    super(`Cannot send "${method}": the ${describeGate(gate)} was not negotiated`);
    this.name = 'CapabilityNotNegotiatedError';
    this.method = method;
    this.capability = gate.path.join('.');
  }
}

/** A local error: a message the lifecycle does not allow yet (LIFE-5, LIFE-6), or a method unknown to the revision. */
export class ProtocolStateError extends Error {
  readonly code = 'PROTOCOL_STATE';
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolStateError';
  }
}
