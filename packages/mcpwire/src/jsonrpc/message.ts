// JSON-RPC 2.0 message shapes and guards. Knows nothing of MCP.

/** A request id: a string or an integer, never null (JSON-RPC 2.0; MCP BASE-3). */
export type RequestId = string | number;

/** Any JSON object used as `params` or `result`. */
export type JsonObject = { [key: string]: unknown };

/** A call that expects a response. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

/** A one-way message: it has no id and is never answered (BASE-7). */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

/** A successful response echoing the request's id. */
export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}

/** The `error` member of an error response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A failed response; `id` is absent only when the request's id could not be read (BASE-6). */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id?: RequestId;
  error: JsonRpcErrorObject;
}

/** Either kind of response. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

/** One JSON-RPC message. */
export type Message = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** True for a request (has `method` and `id`). */
export function isRequest(message: Message): message is JsonRpcRequest {
  return 'method' in message && 'id' in message;
}

/** True for a notification (has `method`, no `id`). */
export function isNotification(message: Message): message is JsonRpcNotification {
  return 'method' in message && !('id' in message);
}

/** True for a result or error response. */
export function isResponse(message: Message): message is JsonRpcResponse {
  return !('method' in message);
}

/** True for an error response. */
export function isErrorResponse(message: Message): message is JsonRpcErrorResponse {
  return 'error' in message && !('method' in message);
}

/**
 * Hints a transport may use when writing a message. `relatedRequestId` names the inbound request a
 * message belongs to (its response, its progress, a server request made while serving it), so a
 * transport with several streams (HTTP) can put it on that request's stream.
 */
export interface SendOptions {
  relatedRequestId?: RequestId;
  /**
   * The message's JSON text as a peer wrote it, when the sender relays that message unchanged (a
   * bridge): a transport writing this one message as a JSON body may write the text as it is instead
   * of encoding the message again. The sender vouches that the text decodes to `message`.
   */
  text?: string;
}
