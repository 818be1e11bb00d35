// The wire engine's HTTP/1.1 response reader: the same events whatever the split of the bytes (at
// every offset and one byte at a time), each framing, and every malformed answer an HttpWireError.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpResponseParser, HttpWireError } from './http-response-parser.ts';

const LIMITS = { maxHeadBytes: 1024, maxBodyBytes: 64 };

/** What the parser reported for `parts` (one response expected), as text. */
function read(parts: readonly Buffer[], options: { isEnd?: boolean } = {}): string[] {
  const events: string[] = [];
  let body = '';
  const parser = new HttpResponseParser(
    {
      handleHead: (status, headers) => events.push(`head ${status} ${JSON.stringify([...headers])}`),
      handleBody: (chunk) => (body += chunk.toString('utf8')),
      handleEnd: (isReusable) => events.push(`end ${body} ${isReusable}`),
    },
    LIMITS,
  );
  parser.expect();
  for (const part of parts) parser.push(part);
  if (options.isEnd === true) parser.end();
  return events;
}

/** `read` of `text` whole, split at every offset, and one byte at a time: all the same. */
function readEverySplit(text: string, options: { isEnd?: boolean } = {}): string[] {
  const bytes = Buffer.from(text, 'latin1');
  const whole = read([bytes], options);
  for (let at = 1; at < bytes.length; at++)
    assert.deepEqual(read([bytes.subarray(0, at), bytes.subarray(at)], options), whole, `split at ${at}`);
  assert.deepEqual(
    read(
      [...bytes].map((byte) => Buffer.from([byte])),
      options,
    ),
    whole,
    'byte by byte',
  );
  return whole;
}

test('a Content-Length body, whatever the split', () => {
  assert.deepEqual(
    readEverySplit('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}'),
    ['head 200 [["content-type","application/json"],["content-length","7"]]', 'end {"a":1} true'],
  );
});

test('a chunked body with an extension and a trailer; 100 Continue skipped; Connection: close', () => {
  assert.deepEqual(
    readEverySplit(
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n' +
        '3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nX-T: 1\r\n\r\n',
    ),
    ['head 200 [["transfer-encoding","chunked"],["connection","close"]]', 'end abcde false'],
  );
});

test('a body read to the end of the connection, and a 204 without one', () => {
  assert.deepEqual(readEverySplit('HTTP/1.1 200 OK\r\n\r\nuntil close', { isEnd: true }), [
    'head 200 []',
    'end until close false',
  ]);
  assert.deepEqual(readEverySplit('HTTP/1.1 204 No Content\r\n\r\n'), ['head 204 []', 'end  true']);
});

test('every malformed or oversized answer is an HttpWireError', () => {
  const cases: Array<[string, RegExp, { isEnd?: boolean }?]> = [
    ['HTTP/1.1 2OO OK\r\n\r\n', /status line/],
    ['HTTP/2 200\r\n\r\n', /status line/],
    ['HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n', /Content-Length/],
    ['HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', /conflicting/],
    ['HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n', /both/],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n', /Transfer-Encoding/],
    ['HTTP/1.1 200 OK\r\nbad header\r\n\r\n', /header line/],
    ['HTTP/1.1 200 OK\r\n folded: x\r\n\r\n', /header line/],
    [`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(2000)}\r\n\r\n`, /head over 1024/],
    [`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(2000)}`, /head over 1024/],
    ['HTTP/1.1 200 OK\r\nContent-Length: 65\r\n\r\n', /body over 64/],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n41\r\n', /body over 64/],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /chunk size/],
    [`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${'1'.repeat(5000)}`, /chunk line over/],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\naXY', /CRLF/],
    [`HTTP/1.1 200 OK\r\n\r\n${'a'.repeat(65)}`, /body over 64/],
    ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}extra', /after the response ended/],
    ['HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n{}', /closed before/, { isEnd: true }],
  ];
  for (const [text, message, options] of cases)
    assert.throws(
      () => read([Buffer.from(text, 'latin1')], options),
      (error: unknown) => error instanceof HttpWireError && message.test(error.message),
      JSON.stringify(text.slice(0, 60)),
    );
});

test('bytes with no request in flight are an error', () => {
  const parser = new HttpResponseParser({ handleHead() {}, handleBody() {}, handleEnd() {} }, LIMITS);
  assert.throws(() => parser.push(Buffer.from('HTTP/1.1 200 OK\r\n\r\n')), HttpWireError);
});
