// JSON bodies of the HTTP handler: results, JSON-RPC error responses, and the HTTP status each
// stateless-era error code takes (S26 section 1.7).

import { encodeMessage } from '../../jsonrpc/codec.ts';
import type { JsonRpcErrorResponse, Message, RequestId } from '../../jsonrpc/message.ts';
import { ErrorCode } from '../../jsonrpc/rpc-error.ts';
import { StatelessErrorCode } from '../../protocol/types/index.ts';
import type { HttpReply } from './exchange.ts';

/**
 * The code of transport-level refusals (wrong Origin, unknown session, method not allowed, ...):
 * -32000, the implementation-defined server error; clients branch on the HTTP status, not on it.
 */
export const TRANSPORT_ERROR = -32000;

/** A JSON reply with the given status. */
export function jsonReply(
  body: Message | readonly Message[],
  status: number,
  headers?: Record<string, string>,
): HttpReply {
  // encodeMessage, not JSON.stringify: a result's pre-encoded tail (2026-07-28 server info) is spliced in.
  return jsonTextReply(encodeMessage(body), status, headers);
}

/** A JSON reply whose body is `text`, JSON already encoded (a relayed message's own text). */
export function jsonTextReply(text: string, status: number, headers?: Record<string, string>): HttpReply {
  return {
    status,
    headers: headers
      ? { 'Content-Type': 'application/json', ...headers }
      : { 'Content-Type': 'application/json' },
    body: text,
  };
}

/** What an error response says, and the request id it answers when one was readable. */
export interface HttpError {
  status: number;
  code: number;
  message: string;
  id?: RequestId | undefined;
  data?: unknown;
  headers?: Record<string, string>;
}

/** A JSON-RPC error response in a JSON body, with the request id echoed when known (S26-HTTP-17). */
export function errorReply(error: HttpError): HttpReply {
  const body: JsonRpcErrorResponse = {
    jsonrpc: '2.0',
    error:
      error.data === undefined
        ? { code: error.code, message: error.message }
        : { code: error.code, message: error.message, data: error.data },
  };
  if (error.id !== undefined) body.id = error.id;
  return jsonReply(body, error.status, error.headers);
}

/**
 * The HTTP status of a stateless-era JSON response carrying an error with `code`: 404 for
 * -32601 (S26-HTTP-16), 400 for the envelope, header, capability and version errors and for
 * unreadable input, 200 for every other (in-band) error (checklist section 5 item 6).
 */
export function statusForErrorCode(code: number): number {
  switch (code) {
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.ParseError:
    case ErrorCode.InvalidRequest:
    case StatelessErrorCode.HeaderMismatch:
    case StatelessErrorCode.MissingRequiredClientCapability:
    case StatelessErrorCode.UnsupportedProtocolVersion:
      return 400;
    default:
      return 200;
  }
}
