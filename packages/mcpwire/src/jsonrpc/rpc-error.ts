// The one error type that becomes a JSON-RPC error response, and the standard codes.

import type { JsonRpcErrorObject, JsonRpcErrorResponse, RequestId } from './message.ts';

/** Standard JSON-RPC 2.0 error codes. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/**
 * A protocol error: thrown by a handler, it becomes the error response `{code, message, data}`.
 * Anything else a handler throws becomes -32603 with the original kept as `cause` for logs.
 */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RpcError';
    this.code = code;
    this.data = data;
  }

  /** The wire form of this error. */
  toErrorObject(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds an RpcError from a received error object, so callers can catch it by `code`. */
  static fromErrorObject(error: JsonRpcErrorObject): RpcError {
    return new RpcError(error.code, error.message, error.data);
  }
}

/**
 * The error response to a request whose handler failed with `error`: an RpcError as it is, anything
 * else -32603 naming the method, the original passed to `report` (logs) and never sent.
 */
export function failureResponse(
  id: RequestId,
  method: string,
  error: unknown,
  report: (error: Error) => void,
): JsonRpcErrorResponse {
  if (error instanceof RpcError) return { jsonrpc: '2.0', id, error: error.toErrorObject() };
  report(new Error(`Handler for "${method}" failed`, { cause: error }));
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ErrorCode.InternalError, message: `Internal error while handling "${method}"` },
  };
}
