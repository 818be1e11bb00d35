// The rules behind `mcpwire replay`, in process and without I/O: how a transcript becomes exchanges,
// how a new request picks its recorded answer, and how --check compares and carries values.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonRpcRequest, Message } from 'mcpwire';
import { REDACTED } from '../src/wire/redact.ts';
import type { MessageEntry, Side, Transcript } from '../src/wire/transcript.ts';
import { canonicalParams } from '../src/commands/replay/canonical-params.ts';
import { CarriedValues } from '../src/commands/replay/carried-values.ts';
import { IgnoredPaths, PER_RUN_PATHS } from '../src/commands/replay/ignored-paths.ts';
import { diffJson } from '../src/commands/replay/json-diff.ts';
import { pairExchanges } from '../src/commands/replay/recorded-exchanges.ts';
import { ReplayBook } from '../src/commands/replay/replay-book.ts';

const ENVELOPE_KEYS = {
  version: 'io.modelcontextprotocol/protocolVersion',
  capabilities: 'io.modelcontextprotocol/clientCapabilities',
  info: 'io.modelcontextprotocol/clientInfo',
};

function entries(...messages: Array<[Side, Message]>): MessageEntry[] {
  return messages.map(([from, message], t) => ({ type: 'message', t, from, message }));
}

function transcriptOf(messages: MessageEntry[]): Transcript {
  return {
    header: {
      type: 'header',
      format: 'mcpwire-transcript',
      version: 1,
      recorder: 'test',
      transport: 'stdio',
      target: 'test',
      startedAt: '2026-01-01T00:00:00.000Z',
    },
    entries: messages,
  };
}

const call = (id: number, name: string, args: object, meta?: object): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
});
const text = (id: number, value: string): Message => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text: value }] },
});

describe('pairExchanges: requests of one side with the other side answers, per direction', () => {
  test('by id, with progress filed under its token and other notifications under the latest request', () => {
    const exchanges = pairExchanges(
      entries(
        ['client', call(1, 'slow', {}, { progressToken: 'p1' })],
        ['client', call(2, 'fast', {})],
        [
          'server',
          { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1 } },
        ],
        ['server', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }],
        ['server', text(2, 'fast done')],
        ['server', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }],
        ['server', text(1, 'slow done')],
        ['server', { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' }],
        ['client', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } }],
        ['server', { jsonrpc: '2.0', method: 'notifications/resources/list_changed' }],
        // The server's own request is the other direction's exchange; the client's answer pairs with it.
        ['server', { jsonrpc: '2.0', id: 1, method: 'roots/list' }],
        ['client', { jsonrpc: '2.0', id: 1, result: { roots: [] } }],
      ),
      'client',
    );
    assert.equal(exchanges.length, 2);
    const [slow, fast] = exchanges;
    assert.deepEqual(slow!.response, text(1, 'slow done'));
    assert.deepEqual(fast!.response, text(2, 'fast done'));
    // PROG-1: progress belongs to the request whose token it carries, whichever was sent last.
    assert.deepEqual(
      slow!.before.map((n) => n.method),
      ['notifications/progress', 'notifications/tools/list_changed'],
    );
    assert.deepEqual(
      fast!.before.map((n) => n.method),
      ['notifications/message'],
    );
    // After the response, until the client spoke again; nothing after that (no request was in flight).
    assert.deepEqual(
      slow!.after.map((n) => n.method),
      ['notifications/prompts/list_changed'],
    );
  });

  test('the server side: its requests with the client answers; an unanswered request has no response', () => {
    const exchanges = pairExchanges(
      entries(
        ['server', { jsonrpc: '2.0', id: 'a', method: 'sampling/createMessage', params: { maxTokens: 5 } }],
        ['client', { jsonrpc: '2.0', id: 'a', result: { role: 'assistant' } }],
        ['server', { jsonrpc: '2.0', id: 'b', method: 'roots/list' }],
      ),
      'server',
    );
    assert.deepEqual(
      exchanges.map((exchange) => [exchange.request.method, exchange.response !== undefined]),
      [
        ['sampling/createMessage', true],
        ['roots/list', false],
      ],
    );
  });
});

describe('ReplayBook.answer: which recorded answer a new request gets', () => {
  const book = (): ReplayBook =>
    ReplayBook.fromTranscript(
      transcriptOf(
        entries(
          ['client', call(1, 'echo', { message: 'one' })],
          ['server', text(1, 'one')],
          ['client', call(2, 'echo', { message: 'two' })],
          ['server', text(2, 'two')],
          ['client', call(3, 'add', { a: 1 })],
          ['server', { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'bad a' } }],
        ),
      ),
      'client',
    );

  test('equal params first (key order aside), under the new id; then the same answer again', () => {
    const replay = book();
    const first = replay.answer({ ...call(0, 'echo', { message: 'two' }), id: 'new' });
    assert.deepEqual(first.response, { ...text(2, 'two'), id: 'new' });
    assert.deepEqual(replay.answer(call(7, 'echo', { message: 'two' })).response, text(7, 'two'));
    // A recorded error is replayed as it was (BASE-9 codes are the server's, not ours).
    assert.deepEqual(replay.answer(call(8, 'add', { a: 1 })).response, {
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32602, message: 'bad a' },
    });
  });

  test('other params fall back to the next unused request naming the same tool, then -32602 naming the closest', () => {
    const replay = book();
    assert.deepEqual(replay.answer(call(1, 'echo', { message: 'zzz' })).response, text(1, 'one'));
    assert.deepEqual(replay.answer(call(2, 'echo', { message: 'yyy' })).response, text(2, 'two'));
    const none = replay.answer(call(3, 'echo', { message: 'xxx' })).response;
    assert.ok('error' in none);
    assert.equal(none.error.code, -32602);
    assert.match(
      none.error.message,
      /^Invalid params: no recorded tools\/call echo request matched these params; the closest recorded one is tools\/call echo \{"name":"echo","arguments":\{"message":"one"\}\}$/,
    );
    // Another tool is never answered with echo's result.
    const other = replay.answer(call(4, 'reverse', { message: 'one' })).response;
    assert.ok('error' in other);
    assert.match(other.error.message, /no recorded tools\/call reverse request matched/);
  });

  test('a method never recorded gets -32601 (BASE-9); ping gets {} all the same (PING-1)', () => {
    const replay = book();
    const missing = replay.answer({ jsonrpc: '2.0', id: 1, method: 'prompts/list' }).response;
    assert.ok('error' in missing);
    assert.equal(missing.error.code, -32601);
    assert.match(
      missing.error.message,
      /the recording has no "prompts\/list" request \(it has tools\/call\)/,
    );
    assert.deepEqual(replay.answer({ jsonrpc: '2.0', id: 2, method: 'ping' }).response, {
      jsonrpc: '2.0',
      id: 2,
      result: {},
    });
  });

  test('initialize gets the recorded result whatever the client asked (LIFE-8: the recording negotiated it)', () => {
    const result = {
      protocolVersion: '2025-06-18',
      capabilities: {},
      serverInfo: { name: 's', version: '1' },
    };
    const replay = ReplayBook.fromTranscript(
      transcriptOf(
        entries(
          ['client', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '1.0' } }],
          [
            'server',
            { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Unsupported protocol version' } },
          ],
          [
            'client',
            { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-06-18' } },
          ],
          ['server', { jsonrpc: '2.0', id: 2, result }],
        ),
      ),
      'client',
    );
    const asked = { protocolVersion: '2025-11-25', clientInfo: { name: 'other', version: '9' } };
    for (const id of [10, 11])
      assert.deepEqual(replay.answer({ jsonrpc: '2.0', id, method: 'initialize', params: asked }).response, {
        jsonrpc: '2.0',
        id,
        result,
      });
  });

  test('progress is re-addressed to the new token, and dropped for a request that gave none (PROG-1/2)', () => {
    const progress = (progress: number): Message => ({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 0, progress, total: 2 },
    });
    const replay = ReplayBook.fromTranscript(
      transcriptOf(
        entries(
          ['client', call(1, 'slow', {}, { progressToken: 0 })],
          ['server', progress(1)],
          ['server', progress(2)],
          ['server', text(1, 'done')],
        ),
      ),
      'client',
    );
    const withToken = replay.answer(call(5, 'slow', {}, { progressToken: 'mine' }));
    assert.deepEqual(
      withToken.before.map((n) => n.params),
      [
        { progressToken: 'mine', progress: 1, total: 2 },
        { progressToken: 'mine', progress: 2, total: 2 },
      ],
    );
    assert.deepEqual(replay.answer(call(6, 'slow', {})).before, []);
  });
});

describe('canonicalParams: what counts as the same question', () => {
  test('key order, absent params, progress tokens and the envelope clientInfo do not count; capabilities do', () => {
    assert.equal(canonicalParams(undefined), canonicalParams({}));
    assert.equal(canonicalParams({ a: 1, b: { c: 2, d: 3 } }), canonicalParams({ b: { d: 3, c: 2 }, a: 1 }));
    assert.equal(canonicalParams({ _meta: { progressToken: 7 } }), canonicalParams({}));
    const envelope = (info: string, capabilities: object): object => ({
      _meta: {
        [ENVELOPE_KEYS.version]: '2026-07-28',
        [ENVELOPE_KEYS.capabilities]: capabilities,
        [ENVELOPE_KEYS.info]: { name: info, version: '1' },
      },
    });
    assert.equal(
      canonicalParams(envelope('ours', {}) as never),
      canonicalParams(envelope('theirs', {}) as never),
    );
    assert.notEqual(
      canonicalParams(envelope('ours', {}) as never),
      canonicalParams(envelope('ours', { sampling: {} }) as never),
    );
  });
});

describe('diffJson with IgnoredPaths: what --check reports', () => {
  test('path by path; added and removed keys; array order counts, key order does not', () => {
    assert.deepEqual(
      diffJson(
        { result: { content: [{ type: 'text', text: '5' }], keep: 1, gone: true } },
        {
          result: {
            keep: 1,
            content: [
              { text: '6', type: 'text' },
              { type: 'text', text: 'x' },
            ],
            new: null,
          },
        },
      ),
      [
        { path: '$.result.content[0].text', kind: 'changed', recorded: '5', received: '6' },
        { path: '$.result.content[1]', kind: 'added', received: { type: 'text', text: 'x' } },
        { path: '$.result.gone', kind: 'removed', recorded: true },
        { path: '$.result.new', kind: 'added', received: null },
      ],
    );
    assert.deepEqual(diffJson({ a: { 'io.x/y': 1 } }, { a: { 'io.x/y': 2 } })[0]?.path, '$.a["io.x/y"]');
  });

  test('ignored paths and all below them are skipped; a recorded "[redacted]" matches anything', () => {
    const ignored = new IgnoredPaths(['$.result.content[*].text', '$..stamp']);
    assert.deepEqual(
      diffJson(
        { result: { content: [{ text: 'a' }], deep: { stamp: 1, token: REDACTED }, other: 1 } },
        { result: { content: [{ text: 'b' }], deep: { stamp: { nested: 2 }, token: 'secret' }, other: 2 } },
        { ignored },
      ).map((difference) => difference.path),
      ['$.result.other'],
    );
  });

  test('the per-run paths are ignored by default; a path --ignore cannot read is a usage error naming --ignore', () => {
    const perRun = IgnoredPaths.withPerRun();
    assert.ok(PER_RUN_PATHS.includes('$..progressToken'));
    assert.ok(perRun.has(['result', '_meta', 'progressToken']));
    assert.ok(perRun.has(['result', 'requestState']));
    assert.equal(perRun.has(['result', 'content']), false);
    assert.throws(
      () => new IgnoredPaths(['result.text']),
      /^UsageError: --ignore "result\.text": a path starts with \$/,
    );
  });
});

describe('CarriedValues: what the server made up on this run goes into later requests', () => {
  test('a changed requestState, taskId or nextCursor replaces the recorded one wherever it recurs', () => {
    const carried = new CarriedValues();
    carried.learn(
      { result: { requestState: 'old-state', task: { taskId: 't1' }, nextCursor: 'c1', text: 'same?' } },
      { result: { requestState: 'new-state', task: { taskId: 't2' }, nextCursor: 'c1', text: 'other' } },
    );
    assert.deepEqual(
      carried.apply({ params: { requestState: 'old-state', taskId: 't1', cursor: 'c1', text: 'same?' } }),
      { params: { requestState: 'new-state', taskId: 't2', cursor: 'c1', text: 'same?' } },
    );
  });
});
