// One NDJSON line -> one Frame: the codec for text, a -32600 error frame for a line over the limit
// (with the id read from its first bytes, when they hold it).

import { decodeFrame, type Frame } from '../../jsonrpc/codec.ts';
import { peekEnvelope } from '../../jsonrpc/peek-envelope.ts';
import { ErrorCode } from '../../jsonrpc/rpc-error.ts';
import type { NdjsonLine } from './ndjson.ts';

/**
 * Decodes one splitter line. Never throws: text goes through `decodeFrame` (bad JSON is -32700),
 * an oversize line becomes an `invalid` frame with code -32600, the id read from the line's head
 * when there is one there (else none), and `discarded` saying what was dropped.
 */
export function decodeLine(line: NdjsonLine): Frame {
  if (line.type === 'line') return decodeFrame(line.text);
  // -32600, not -32603: the request as sent is what cannot be accepted (sending it again fails
  // the same way); nothing went wrong inside the receiver. HTTP's 413 for a body says the same.
  const message =
    `Invalid Request: a message must be at most ${line.limit} bytes, ` +
    `received a line of at least ${line.bytes} bytes (discarded)`;
  const { id, kind } = peekEnvelope(line.head);
  const error = { code: ErrorCode.InvalidRequest, message };
  return {
    type: 'invalid',
    response: id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error },
    discarded: { bytes: line.bytes, limit: line.limit, kind, ...(id === undefined ? {} : { id }) },
  };
}
