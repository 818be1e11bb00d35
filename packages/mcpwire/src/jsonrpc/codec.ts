// Text <-> JSON-RPC messages: decoding validates the envelope and names the exact JSON-RPC error.

import { encodeWithTail } from './encoded-tail.ts';
import type { JsonRpcErrorResponse, Message, RequestId } from './message.ts';
import { ErrorCode } from './rpc-error.ts';

/**
 * What one frame of input decodes to: a valid message, an invalid one with the error response
 * the receiver must send back, or a batch (an array) of those. Whether batches are allowed is
 * the receiver's decision (only protocol revision 2025-03-26 has them).
 */
export type Frame =
  | {
      type: 'message';
      message: Message;
      /**
       * The JSON text the message was decoded from, when the transport keeps it (the HTTP handler
       * does, for a POST body that is one message): a relay may pass the message on as these bytes.
       * Absent once anything rewrote the message. May hold raw newlines between tokens.
       */
      text?: string;
    }
  | { type: 'invalid'; response: JsonRpcErrorResponse; discarded?: DiscardedMessage }
  | { type: 'batch'; items: Array<Exclude<Frame, { type: 'batch' }>> };

/**
 * A message the transport discarded unread because it was over its size limit: what its first
 * bytes said (id, kind) and the sizes, so the receiver can fail or answer the request it belongs to.
 */
export interface DiscardedMessage {
  /** Bytes received of it when it was discarded (at least `limit + 1`). */
  bytes: number;
  limit: number;
  id?: RequestId;
  kind: 'request' | 'response' | 'unknown';
}

/** Decodes one frame of text (a stdio line, an HTTP body). Never throws. */
export function decodeFrame(text: string): Frame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return parseError(error);
  }
  return fromJson(value);
}

function parseError(error: unknown): InvalidFrame {
  const detail = error instanceof Error ? error.message : String(error);
  return invalid(undefined, ErrorCode.ParseError, `Parse error: ${detail}`);
}

/** Classifies already-parsed JSON (for transports whose framing parses JSON itself). Never throws. */
export function fromJson(value: unknown): Frame {
  if (!Array.isArray(value)) return parseMessage(value);
  if (value.length === 0) return invalid(undefined, ErrorCode.InvalidRequest, 'Invalid Request: empty batch');
  return { type: 'batch', items: value.map(parseMessage) };
}

/** {@link decodeFrame}, a single message's frame keeping `text` as it came. */
export function decodeFrameKeepingText(text: string): Frame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return parseError(error);
  }
  if (Array.isArray(value)) return fromJson(value);
  // The frame is made once, with its text (no second frame copied from the first per HTTP POST).
  return findInvalid(value) ?? { type: 'message', message: value as Message, text };
}

/**
 * Encodes one message, or a batch, as a single line of JSON text (no embedded newlines). A result
 * ending with a value whose text is known (encoded-tail.ts) gets that text, not a new serialisation.
 */
export function encodeMessage(message: Message | readonly Message[]): string {
  return encodeWithTail(message) ?? JSON.stringify(message);
}

/** Validates a parsed JSON value as one JSON-RPC 2.0 message (BASE-2..BASE-7). */
export function parseMessage(value: unknown): Exclude<Frame, { type: 'batch' }> {
  return findInvalid(value) ?? { type: 'message', message: value as Message };
}

type InvalidFrame = Extract<Frame, { type: 'invalid' }>;

/** The invalid frame `value` makes, or undefined when it is a valid JSON-RPC 2.0 message. */
function findInvalid(value: unknown): InvalidFrame | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid(
      undefined,
      ErrorCode.InvalidRequest,
      `Invalid Request: expected a JSON object, got ${describe(value)}`,
    );
  }
  const record = value as Record<string, unknown>;
  const id = readableId(record);
  if (record.jsonrpc !== '2.0') {
    return invalid(
      id,
      ErrorCode.InvalidRequest,
      `Invalid Request: "jsonrpc" must be "2.0", got ${describe(record.jsonrpc)}`,
    );
  }
  if ('method' in record) return parseCall(record, id);
  return parseResponse(record, id);
}

function parseCall(record: Record<string, unknown>, id: RequestId | undefined): InvalidFrame | undefined {
  if (typeof record.method !== 'string') {
    return invalid(
      id,
      ErrorCode.InvalidRequest,
      `Invalid Request: "method" must be a string, got ${describe(record.method)}`,
    );
  }
  if ('id' in record && id === undefined) {
    return invalid(
      undefined,
      ErrorCode.InvalidRequest,
      `Invalid Request: "id" must be a string or an integer, got ${describe(record.id)}`,
    );
  }
  if ('params' in record && !isPlainObject(record.params)) {
    return invalid(
      id,
      ErrorCode.InvalidRequest,
      `Invalid Request: "params" must be an object, got ${describe(record.params)}`,
    );
  }
  return undefined;
}

function parseResponse(record: Record<string, unknown>, id: RequestId | undefined): InvalidFrame | undefined {
  const hasResult = 'result' in record;
  const hasError = 'error' in record;
  if (hasResult === hasError) {
    const what = hasResult ? 'both "result" and "error"' : 'neither "method", "result" nor "error"';
    return invalid(id, ErrorCode.InvalidRequest, `Invalid Request: a message with ${what}`);
  }
  if (hasResult) {
    if (id === undefined)
      return invalid(
        undefined,
        ErrorCode.InvalidRequest,
        'Invalid Request: a result response needs a string or integer "id"',
      );
    if (!isPlainObject(record.result)) {
      return invalid(
        id,
        ErrorCode.InvalidRequest,
        `Invalid Request: "result" must be an object, got ${describe(record.result)}`,
      );
    }
    return undefined;
  }
  const error = record.error;
  if (!isPlainObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
    return invalid(
      id,
      ErrorCode.InvalidRequest,
      'Invalid Request: "error" must be {code: integer, message: string}',
    );
  }
  if ('id' in record && record.id !== null && id === undefined) {
    return invalid(
      undefined,
      ErrorCode.InvalidRequest,
      `Invalid Request: "id" must be a string or an integer, got ${describe(record.id)}`,
    );
  }
  return undefined;
}

/** The id if it is a legal request id (string or integer), else undefined. */
function readableId(record: Record<string, unknown>): RequestId | undefined {
  const id = record.id;
  if (typeof id === 'string') return id;
  if (typeof id === 'number' && Number.isSafeInteger(id)) return id;
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(id: RequestId | undefined, code: number, message: string): InvalidFrame {
  const response: JsonRpcErrorResponse =
    id === undefined
      ? { jsonrpc: '2.0', error: { code, message } }
      : { jsonrpc: '2.0', id, error: { code, message } };
  return { type: 'invalid', response };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  return typeof value === 'string'
    ? `"${value.length > 40 ? value.slice(0, 40) + '...' : value}"`
    : typeof value;
}
