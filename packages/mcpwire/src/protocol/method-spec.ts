// What one row of the method table says (MethodSpec), how a row gets its params and result types
// (describeMethod), and the two questions every check asks of a row: in this revision? this sender?

/** Which side may send a method. */
export type Sender = 'client' | 'server' | 'both';

/**
 * A capability path: the side that declares it, and the keys leading to it (e.g. resources.subscribe).
 * `receiver` is for methods either side may send (tasks): the side that receives the request declares it.
 */
export interface CapabilityGate {
  side: 'client' | 'server' | 'receiver';
  path: readonly [string, ...string[]];
}

/** A shallow parameter rule: a type name, with `?` for optional. `id` is a string or integer. */
export type ParamRule =
  | 'string'
  | 'number'
  | 'boolean'
  | 'object'
  | 'array'
  | 'id'
  | 'any'
  | `${'string' | 'number' | 'boolean' | 'object' | 'array' | 'id'}?`;

/** One row of the table. */
export interface MethodSpec {
  kind: 'request' | 'notification';
  sender: Sender;
  /** The capability that must have been negotiated before this method may be used. */
  gate?: CapabilityGate;
  /**
   * The gate in the stateless era, where it differs from `gate`: a method the 2026-07-28 revision
   * moved into an extension is gated by the receiver's `extensions.<id>` (S26-TASK-1), not by the
   * core capability the handshake era used.
   */
  statelessGate?: CapabilityGate;
  /** First protocol revision with this method. */
  since: string;
  /** Last revision with it (for methods the stateless revision removed). */
  until?: string;
  /** Shallow shape of `params` (unknown extra keys are allowed: the spec's objects are open). */
  params?: Readonly<Record<string, ParamRule>>;
  /** Results may be paginated with `cursor`/`nextCursor`. */
  isPaginated?: boolean;
  /** Stateless-era results carry caching hints of this family (S26-CACHE-1). */
  cache?: 'discover' | 'lists' | 'read';
  /** The handler may ask the client for input: multi-round-trip requests in the stateless era (S26-MRTR). */
  hasInputRounds?: boolean;
  /** The result closes a stream the request opened (listen): sent as the handler made it, undecorated. */
  isStreamed?: boolean;
  /**
   * The param whose string value a stateless-era HTTP request mirrors in its `Mcp-Name` header
   * (S26-HTTP-12): `name` for tools/call, `uri` for resources/read. Read by the client that writes
   * the header, the server that checks it, and `mcpwire check`'s linter.
   */
  nameParam?: string;
  /**
   * May be sent before initialization has finished: `initialize` and `ping` (LIFE-5), log and
   * progress notifications (LIFE-6), and the cancellation of an early request (LIFE-15). Everything
   * else waits for the handshake. `mcpwire check`'s linter reads it.
   */
  isAllowedBeforeInit?: boolean;
  /**
   * The requirement a message breaks when the capability its gate names was not declared (ids defined
   * in docs/requirements.md), in the handshake era and in the stateless era (`stateless`, absent where
   * that era reports none: the method is gone there, or its gate is another side's business).
   */
  gateRequirement?: { readonly handshake: string; readonly stateless?: string };
  /**
   * For a request that may be task-augmented (2025-11-25, `params.task`): the requirement broken when
   * its receiver did not declare `tasks.requests.<method's segments>` (TASK-3 for tools/call, a MUST;
   * TASK-2 for the others, a SHOULD).
   */
  taskRequirement?: string;
}

/**
 * A method's row with its params and result types attached (types only, nothing at runtime): what
 * the core writes once per method in METHODS, and an extension in its own table.
 */
export interface MethodDescription<Params = unknown, Result = unknown> extends MethodSpec {
  /** Never set: carries the types to handlers and callers. */
  readonly types?: { params: Params; result: Result };
}

/**
 * Describes one method with its params and result types: `describeMethod<P, R>()({ kind, ... })`.
 * Returns the row itself (the same object), typed with its literal facts and `P`/`R`.
 */
export function describeMethod<Params, Result>(): <const S extends MethodSpec>(
  spec: S,
) => S & MethodDescription<Params, Result> {
  return (spec) => spec;
}

/** The params type of a described method. */
export type DescribedParams<D> = D extends { readonly types?: { params: infer P } } ? P : never;
/** The result type of a described request (`never` for a notification). */
export type DescribedResult<D> = D extends { readonly types?: { result: infer R } } ? R : never;

/** True if `method` exists in protocol revision `version` (ISO date strings compare in order). */
export function isMethodInRevision(spec: MethodSpec, version: string): boolean {
  return version >= spec.since && (spec.until === undefined || version <= spec.until);
}

/** True if `role` may send this method. */
export function canSend(spec: MethodSpec, role: 'client' | 'server'): boolean {
  return spec.sender === 'both' || spec.sender === role;
}
