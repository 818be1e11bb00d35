// The report's model and HTML in-process, from transcripts written here: every entry a row in
// transcript order, requests joined to their responses by id and direction (BASE-5, BASE-6), labels
// and failure marks, notes for transport events, bracket tracks bounded, and peer text escaped.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseTranscript, type Transcript } from '../src/wire/transcript.ts';
import { escapeHtml } from '../src/commands/report/html.ts';
import { toReportHtml } from '../src/commands/report/report-html.ts';
import { MAX_TRACKS, toReportModel, type ArrowRow } from '../src/commands/report/report-model.ts';

const HEADER = {
  type: 'header',
  format: 'mcpwire-transcript',
  version: 1,
  recorder: 'mcpwire call',
  transport: 'stdio',
  target: 'mcpwire serve github',
  startedAt: '2026-07-28T10:00:00.000Z',
} as const;

/** A transcript as its file would be read: the header, then `entries` (JSONL through parseTranscript). */
function transcriptOf(entries: readonly object[], header: object = HEADER): Transcript {
  return parseTranscript([header, ...entries].map((entry) => JSON.stringify(entry)).join('\n'));
}

function message(t: number, from: 'client' | 'server', body: object, extra: object = {}): object {
  return { type: 'message', t, from, message: { jsonrpc: '2.0', ...body }, ...extra };
}

function arrows(transcript: Transcript): ArrowRow[] {
  return toReportModel(transcript).rows.filter((row): row is ArrowRow => row.type === 'arrow');
}

const SESSION: readonly object[] = [
  { type: 'spawn', t: 1, command: 'mcpwire', args: ['serve', 'github'], pid: 42 },
  message(2, 'client', { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }),
  message(30, 'server', { id: 1, result: { protocolVersion: '2025-11-25' } }),
  message(31, 'client', { method: 'notifications/initialized' }),
  message(40, 'client', { id: 3, method: 'tools/call', params: { name: 'create_issue', arguments: {} } }),
  message(41, 'server', { id: 7, method: 'sampling/createMessage', params: {} }),
  message(42, 'server', {
    method: 'notifications/progress',
    params: { progressToken: 1, progress: 1, total: 3 },
  }),
  message(50, 'client', { id: 7, result: { role: 'assistant' } }),
  message(60, 'server', { id: 3, error: { code: -32602, message: 'Missing "title"' } }),
  { type: 'invalid', t: 61, from: 'server', text: 'Debug: oops', reason: 'not JSON' },
  message(62, 'client', { id: '3', method: 'ping' }),
  { type: 'stderr', t: 63, text: 'warning\n' },
  { type: 'exit', t: 70, code: 1, signal: null },
];

describe('report model', () => {
  test('every entry is a row in transcript order; messages keep their index among messages', () => {
    const transcript = transcriptOf(SESSION);
    const model = toReportModel(transcript);
    assert.deepEqual(
      model.rows.map((row) => row.entry),
      transcript.entries.map((_, index) => index),
    );
    const indexed = arrows(transcript).flatMap((row) => (row.index === undefined ? [] : [row.index]));
    assert.deepEqual(indexed, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert.deepEqual(model.counts, { messages: 9, requests: 4, failures: 1, notifications: 2, invalid: 1 });
    assert.equal(model.era, 'handshake era (initialize, protocolVersion 2025-11-25)');
  });

  test('labels name the id, method and subject; errors say their code in words (BASE-6)', () => {
    const labels = arrows(transcriptOf(SESSION)).map((row) => [row.summary.label, row.summary.failure]);
    assert.deepEqual(labels, [
      ['#1 initialize 2025-11-25', undefined],
      ['#1 result', undefined],
      ['notifications/initialized', undefined],
      ['#3 tools/call create_issue', undefined],
      ['#7 sampling/createMessage', undefined],
      ['notifications/progress 1/3', undefined],
      ['#7 result', undefined],
      ['#3 error -32602', 'error -32602'],
      ['invalid line', 'invalid'],
      ['#"3" ping', undefined],
    ]);
  });

  test('a response joins the request of the other side with the same id; "3" is not 3 (BASE-3, BASE-5)', () => {
    const model = toReportModel(transcriptOf(SESSION));
    const pairs = model.pairs.map((pair) => {
      const request = model.rows[pair.request] as ArrowRow;
      const response = model.rows[pair.response] as ArrowRow;
      return [request.summary.label, response.summary.label, pair.elapsedMs, pair.isFailure];
    });
    assert.deepEqual(pairs, [
      ['#1 initialize 2025-11-25', '#1 result', 28, false],
      ['#7 sampling/createMessage', '#7 result', 9, false],
      ['#3 tools/call create_issue', '#3 error -32602', 20, true],
    ]);
    const ping = arrows(transcriptOf(SESSION)).find((row) => row.summary.label === '#"3" ping');
    assert.equal(ping?.isUnanswered, true);
    // The server's request 7 and the client's request 7 would be two different exchanges.
    const crossed = arrows(
      transcriptOf([
        message(1, 'client', { id: 7, method: 'ping' }),
        message(2, 'client', { id: 7, result: {} }),
      ]),
    );
    assert.deepEqual(
      crossed.map((row) => [row.isUnanswered, row.isUnmatched]),
      [
        [true, undefined],
        [undefined, true],
      ],
    );
  });

  test('transport events are notes over the lane that acted; a failed exit and HTTP >= 400 are failures', () => {
    const notes = toReportModel(transcriptOf(SESSION)).rows.flatMap((row) =>
      row.type === 'note' ? [[row.kind, row.over, row.text, row.isFailure]] : [],
    );
    assert.deepEqual(notes, [
      ['spawn', 'server', 'spawned mcpwire serve github (pid 42)', false],
      ['stderr', 'server', 'stderr: warning', false],
      ['exit', 'server', 'server exited with code 1', true],
    ]);
    const http = transcriptOf(
      [
        {
          type: 'http-request',
          t: 1,
          exchange: 1,
          method: 'POST',
          url: 'http://h/mcp',
          headers: { 'mcp-method': 'tools/list' },
        },
        message(2, 'client', { id: 1, method: 'tools/list' }, { exchange: 1 }),
        {
          type: 'http-response',
          t: 3,
          exchange: 1,
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
        },
        message(4, 'server', { id: 1, result: { tools: [] } }, { exchange: 1, eventId: 'e1' }),
        { type: 'http-end', t: 5, exchange: 1 },
        { type: 'http-request', t: 6, exchange: 2, method: 'DELETE', url: 'http://h/mcp', headers: {} },
        { type: 'http-response', t: 7, exchange: 2, status: 404, headers: {}, body: 'gone' },
        { type: 'http-end', t: 8, exchange: 2 },
      ],
      { ...HEADER, transport: 'http', target: 'http://h/mcp' },
    );
    const rows = toReportModel(http).rows.map((row) =>
      row.type === 'note' ? `${row.over}: ${row.text}${row.isFailure ? ' !' : ''}` : row.tags.join(','),
    );
    assert.deepEqual(rows, [
      'client: POST /mcp (exchange 1) mcp-method: tools/list',
      'exchange 1',
      'server: HTTP 200 text/event-stream (exchange 1)',
      'exchange 1,event e1',
      // The end of an SSE stream is worth a row; that of a plain body is not.
      'both: exchange 1 ended',
      'client: DELETE /mcp (exchange 2)',
      'server: HTTP 404 (exchange 2) !',
    ]);
  });

  test('the stateless era is named from the _meta envelope (S26-META-2)', () => {
    const stateless = transcriptOf([
      message(1, 'client', {
        id: 1,
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      }),
      message(2, 'server', { id: 1, result: { resultType: 'input_required' } }),
    ]);
    const model = toReportModel(stateless);
    assert.equal(model.era, 'stateless era (2026-07-28)');
    assert.equal((model.rows[1] as ArrowRow).summary.label, '#1 result input_required');
  });

  test('overlapping requests get their own bracket columns, at most MAX_TRACKS; sequential ones share one', () => {
    const concurrent = Array.from({ length: 20 }, (_, id) => message(id, 'client', { id, method: 'ping' }));
    const answers = Array.from({ length: 20 }, (_, id) => message(100 + id, 'server', { id, result: {} }));
    const model = toReportModel(transcriptOf([...concurrent, ...answers]));
    assert.equal(model.pairs.length, 20);
    assert.equal(model.tracks, MAX_TRACKS);
    assert.deepEqual(
      model.pairs.slice(0, MAX_TRACKS).map((pair) => pair.track),
      Array.from({ length: MAX_TRACKS }, (_, track) => track),
    );
    assert.ok(model.pairs.every((pair) => pair.track < MAX_TRACKS));
    const sequential = Array.from({ length: 3000 }, (_, id) => [
      message(2 * id, 'client', { id, method: 'ping' }),
      message(2 * id + 1, 'server', { id, result: {} }),
    ]).flat();
    const long = toReportModel(transcriptOf(sequential));
    assert.equal(long.tracks, 1);
    assert.equal(long.pairs.length, 3000);
  });
});

describe('report HTML', () => {
  const EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>';

  test('text from the transcript is escaped everywhere it appears: labels, JSON, notes, lanes, title', () => {
    const transcript = transcriptOf(
      [
        { type: 'spawn', t: 1, command: EVIL, args: [] },
        message(2, 'client', { id: 1, method: 'tools/call', params: { name: EVIL, arguments: { q: EVIL } } }),
        message(3, 'server', { id: 1, error: { code: -32603, message: EVIL } }),
        { type: 'invalid', t: 4, from: 'server', text: EVIL, reason: EVIL },
        { type: 'stderr', t: 5, text: EVIL },
        { type: 'note', t: 6, text: EVIL },
      ],
      { ...HEADER, recorder: EVIL, target: EVIL },
    );
    const page = toReportHtml(toReportModel(transcript));
    assert.equal(page.match(/<script/g)?.length, 1, "only the report's own script element");
    assert.doesNotMatch(page, /<img/);
    assert.doesNotMatch(page, /<[^>]*\sonerror=/, "no element with the peer's handler");
    assert.ok(page.includes(escapeHtml(EVIL)));
    assert.ok(page.includes(escapeHtml('<script>alert(\\"x\\")</script>')), 'the JSON body, escaped');
  });

  test('self-contained: no reference to anything outside the file, only links within it', () => {
    const page = toReportHtml(toReportModel(transcriptOf(SESSION)));
    assert.doesNotMatch(page, /<(link|img|iframe|object|embed|audio|video|source)\b/i);
    assert.doesNotMatch(page, /\s(src|srcset|action|poster)=/i);
    assert.doesNotMatch(page, /url\(|@import/i);
    const hrefs = [...page.matchAll(/\shref="([^"]*)"/g)].map((match) => match[1]);
    assert.ok(hrefs.length > 0 && hrefs.every((href) => /^#row-\d+$/.test(href!)), hrefs.join(' '));
  });

  test('each message is an arrow with its index, sender and label; notifications and failures are marked', () => {
    const page = toReportHtml(toReportModel(transcriptOf(SESSION)));
    const drawn = [
      ...page.matchAll(
        /<div class="arrow ([^"]*)" data-index="(\d+)" data-from="(\w+)"[^>]*>.*?<span class="label">([^<]*)<\/span>/g,
      ),
    ].map((match) => [Number(match[2]), match[3], match[4], match[1]!.split(' ')]);
    assert.equal(drawn.length, 9);
    assert.deepEqual(
      drawn.map(([index, from, label]) => [index, from, label]),
      [
        [0, 'client', '#1 initialize 2025-11-25'],
        [1, 'server', '#1 result'],
        [2, 'client', 'notifications/initialized'],
        [3, 'client', '#3 tools/call create_issue'],
        [4, 'server', '#7 sampling/createMessage'],
        [5, 'server', 'notifications/progress 1/3'],
        [6, 'client', '#7 result'],
        [7, 'server', '#3 error -32602'],
        [8, 'client', '#&quot;3&quot; ping'],
      ],
    );
    assert.ok((drawn[2]![3] as string[]).includes('notification'));
    assert.ok((drawn[7]![3] as string[]).includes('failure'));
    assert.match(page, /<div class="arrow to-client invalid failure" data-from="server">/);
    assert.match(page, /<span class="mark">no response<\/span>/);
  });
});
