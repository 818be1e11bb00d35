// One NDJSON line -> one Frame: the codec for text, a -32600 error frame for a line over the limit.

import { decodeFrame, type Frame } from '../../jsonrpc/codec.ts';
import { ErrorCode } from '../../jsonrpc/rpc-error.ts';
import type { NdjsonLine } from './ndjson.ts';

/**
 * Decodes one splitter line. Never throws: text goes through `decodeFrame` (bad JSON is -32700),
 * an oversize line becomes an `invalid` frame with code -32600 and no id (its id was never read).
 */
export function decodeLine(line: NdjsonLine): Frame {
  if (line.type === 'line') return decodeFrame(line.text);
  const message =
    `Invalid Request: a message must be at most ${line.limit} bytes, ` +
    `received a line of at least ${line.bytes} bytes (discarded)`;
  return {
    type: 'invalid',
    response: { jsonrpc: '2.0', error: { code: ErrorCode.InvalidRequest, message } },
  };
}
