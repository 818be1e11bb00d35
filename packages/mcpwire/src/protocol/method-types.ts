// Types derived from the method table's rows (methods.ts): a core method's params and result, and
// which core requests each side receives. Nothing here restates a method: each comes from its row.

import type { DescribedParams, DescribedResult, Sender } from './method-spec.ts';
import type { Method, METHODS } from './methods.ts';

/** The params type of a core method, as its row describes it. */
export type ParamsOf<M extends Method> = DescribedParams<(typeof METHODS)[M]>;
/** The result type of a core request, as its row describes it (`never` for a notification). */
export type ResultOf<M extends Method> = DescribedResult<(typeof METHODS)[M]>;

/** The core requests a side receives (the other side, or either, sends them). */
export type InboundRequestMethod<Receiver extends 'client' | 'server'> = {
  [M in Method]: (typeof METHODS)[M] extends {
    kind: 'request';
    sender: Exclude<Sender, Receiver>;
  }
    ? M
    : never;
}[Method];

/**
 * The core requests only `sender` sends (its row's sender is exactly that side): for `'server'`,
 * sampling, elicitation and roots, the requests a client answers with its own handlers.
 */
export type RequestMethodOnlySentBy<S extends 'client' | 'server'> = {
  [M in Method]: (typeof METHODS)[M] extends { kind: 'request'; sender: S } ? M : never;
}[Method];

/** The core requests a side sends (it, or either side, may send them). */
export type OutboundRequestMethod<Sender extends 'client' | 'server'> = InboundRequestMethod<
  Sender extends 'client' ? 'server' : 'client'
>;
