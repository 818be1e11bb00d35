// Client middleware: one chain that wraps every outbound request and every inbound request handler.

import type { JsonObject } from '../jsonrpc/message.ts';

/** One request as middleware sees it. `params` may be replaced before calling `next`. */
export interface ClientMiddlewareRequest {
  /** `outbound`: this client calls the server; `inbound`: the server asks this client (sampling, elicitation, roots). */
  readonly direction: 'outbound' | 'inbound';
  readonly method: string;
  params: JsonObject | undefined;
}

/**
 * Wraps a request: call `next()` to continue (it sends the request, or runs the handler, with the
 * request's current `params`), or answer without calling it. Throwing an `RpcError` on the inbound
 * side becomes the error response. Runs in registration order, outermost first.
 */
export type ClientMiddleware = (
  request: ClientMiddlewareRequest,
  next: () => Promise<JsonObject>,
) => Promise<JsonObject>;

/** Runs `run.handler` inside `run.chain`; the handler receives `request.params` as the chain left them. */
export function runClientMiddleware(
  request: ClientMiddlewareRequest,
  run: {
    chain: readonly ClientMiddleware[];
    handler: (params: JsonObject | undefined) => Promise<JsonObject>;
  },
): Promise<JsonObject> {
  const { chain, handler } = run;
  const step = (index: number): Promise<JsonObject> => {
    const middleware = chain[index];
    if (!middleware) return handler(request.params);
    // A middleware that throws synchronously must still reject, not escape the caller's try.
    try {
      return middleware(request, () => step(index + 1));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };
  return step(0);
}
