// The lint engine on small in-memory transcripts: the cases a recording can hardly provoke on
// purpose (a dual-era probe, a second HTTP session, sub-capabilities, input requests, a revision
// with no schema) and the line numbers findings carry, live and offline.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openFileSink, WireRecorder } from '../recorder.ts';
import type { EventEntry, Side, Transcript } from '../transcript.ts';
import { parseTranscript } from '../transcript.ts';
import { formatFinding, lintSink, lintTranscript, Linter, type Finding } from './index.ts';

let clock = 0;
const message = (from: Side, body: Record<string, unknown>, extra: { exchange?: number } = {}): EventEntry =>
  ({ type: 'message', t: ++clock, from, message: { jsonrpc: '2.0', ...body }, ...extra }) as EventEntry;
const transcript = (transport: 'stdio' | 'http', entries: EventEntry[]): Transcript => ({
  header: {
    type: 'header',
    format: 'mcpwire-transcript',
    version: 1,
    recorder: 'test',
    transport,
    target: 'test',
    startedAt: '2026-01-01T00:00:00.000Z',
  },
  entries,
});
const rules = (findings: readonly Finding[]): string[] => findings.map((finding) => finding.rule);

const INITIALIZE = {
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};
const initialized = (capabilities: Record<string, unknown> = {}): EventEntry[] => [
  message('client', { ...INITIALIZE, params: { ...INITIALIZE.params, capabilities } }),
  message('server', {
    id: 1,
    result: {
      protocolVersion: '2025-11-25',
      capabilities: { tools: {} },
      serverInfo: { name: 's', version: '1' },
    },
  }),
  message('client', { method: 'notifications/initialized' }),
];
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
};

test('a dual-era probe answered with an error, then the handshake, is no finding', () => {
  const findings = lintTranscript(
    transcript('stdio', [
      { type: 'spawn', t: 0, command: 'server', args: [] },
      message('client', { id: 1, method: 'server/discover', params: { _meta: META } }),
      message('server', { id: 1, error: { code: -32601, message: 'Method not found' } }),
      message('client', { ...INITIALIZE, id: 2 }),
      message('server', {
        id: 2,
        result: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 's', version: '1' },
        },
      }),
      message('client', { method: 'notifications/initialized' }),
      message('client', { id: 3, method: 'tools/list' }),
      message('server', { id: 3, result: { tools: [] } }),
    ]),
  );
  assert.deepEqual(findings, []);
});

test('a new initialize over HTTP starts a new session: its ids start afresh; on stdio a reused id is reported', () => {
  const session = (exchange?: number): EventEntry[] => [
    message('client', INITIALIZE, exchange === undefined ? {} : { exchange }),
    message(
      'server',
      {
        id: 1,
        result: { protocolVersion: '2025-03-26', capabilities: {}, serverInfo: { name: 's', version: '1' } },
      },
      exchange === undefined ? {} : { exchange },
    ),
  ];
  assert.deepEqual(rules(lintTranscript(transcript('http', [...session(1), ...session(2)]))), []);
  assert.deepEqual(rules(lintTranscript(transcript('stdio', [...session(), ...session()]))), [
    'request-id-reused',
  ]);
});

test('ids are compared by type and value: 1 and "1" are different requests', () => {
  const findings = lintTranscript(
    transcript('stdio', [
      ...initialized(),
      message('client', { id: 2, method: 'tools/list' }),
      message('client', { id: '2', method: 'tools/list' }),
      message('server', { id: '2', result: { tools: [] } }),
      message('server', { id: 2, result: { tools: [] } }),
    ]),
  );
  assert.deepEqual(findings, []);
});

test('sub-capabilities: sampling tools, an elicitation mode, a task; {} means form-only elicitation', () => {
  const server = (id: string, method: string, params: Record<string, unknown>): EventEntry =>
    message('server', { id, method, params });
  const findings = lintTranscript(
    transcript('stdio', [
      ...initialized({ sampling: {}, elicitation: {} }),
      server('a', 'sampling/createMessage', { messages: [], maxTokens: 5, tools: [] }),
      server('b', 'elicitation/create', {
        message: 'm',
        requestedSchema: { type: 'object', properties: {} },
      }),
      server('c', 'elicitation/create', {
        mode: 'url',
        message: 'm',
        url: 'https://example.com',
        elicitationId: 'e',
      }),
      message('client', { id: 2, method: 'tools/call', params: { name: 'x', task: {} } }),
    ]),
  );
  assert.deepEqual(
    findings.map((finding) => [finding.rule, finding.requirement, finding.severity]),
    [
      ['capability-not-declared', 'SAMP-3', 'error'],
      ['capability-not-declared', 'ELIC-2', 'error'],
      ['capability-not-declared', 'TASK-3', 'error'],
    ],
  );
  assert.match(findings[1]!.message, /needing "elicitation\.url"/);
});

test('2026-07-28: an input_required result asks only for what its request declared', () => {
  const ask = (id: number, capabilities: object): EventEntry[] => [
    message('client', {
      id,
      method: 'tools/call',
      params: { name: 'x', _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': capabilities } },
    }),
    message('server', {
      id,
      result: {
        resultType: 'input_required',
        inputRequests: {
          who: {
            method: 'elicitation/create',
            params: { message: 'Who?', requestedSchema: { type: 'object', properties: {} } },
          },
        },
      },
    }),
  ];
  const findings = lintTranscript(
    transcript('stdio', [...ask(1, { elicitation: {} }), ...ask(2, { sampling: {} })]),
  );
  assert.deepEqual(
    findings.map((finding) => [finding.rule, finding.requirement, finding.line]),
    [['capability-not-declared', 'S26-MRTR-3', 5]],
  );
  assert.match(findings[0]!.message, /input "who" \(elicitation\/create\) of tools\/call/);
});

test('a revision with no schema is one warning; a forced revision checks a transcript that starts mid-session', () => {
  const unknown = lintTranscript(
    transcript('stdio', [
      message('client', { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2099-01-01' } }),
      message('server', {
        id: 1,
        result: { protocolVersion: '2099-01-01', capabilities: {}, serverInfo: { name: 's', version: '1' } },
      }),
      message('client', { method: 'notifications/initialized' }),
    ]),
  );
  assert.deepEqual(rules(unknown), ['revision-unknown']);
  const midSession = transcript('stdio', [
    message('client', { id: 7, method: 'tools/call', params: { name: 'x' } }),
    message('server', { id: 7, result: { content: 'not an array' } }),
  ]);
  assert.deepEqual(rules(lintTranscript(midSession, { revision: '2025-06-18' })), ['schema-violation']);
  // Without it, the request comes before any initialize.
  assert.deepEqual(rules(lintTranscript(midSession)), ['before-handshake', 'schema-violation']);
});

test('a message checked once its revision is known keeps its own line; lintTranscript orders by line', () => {
  const linter = new Linter();
  const early = message('server', { method: 'notifications/message', params: { level: 'info' } });
  assert.deepEqual(linter.push(message('client', INITIALIZE), 2), []);
  // The log message lacks `data`: it is checked when the initialize result names the revision.
  assert.deepEqual(linter.push(early, 3), []);
  const atResult = linter.push(initialized()[1]!, 4);
  assert.deepEqual(
    atResult.map((finding) => [finding.rule, finding.line]),
    [['schema-violation', 3]],
  );
  assert.deepEqual(linter.finish(), []);
});

test('lintSink numbers lines as the --record file of the same recorder does; formatFinding is one line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpwire-lint-sink-'));
  try {
    const file = join(dir, 'live.jsonl');
    const live: Finding[] = [];
    const recorder = new WireRecorder(
      { recorder: 'test', transport: 'stdio', target: 'server' },
      { sinks: [await openFileSink(file), lintSink((finding) => live.push(finding))] },
    );
    recorder.record({ type: 'spawn', command: 'server', args: [] });
    recorder.line('client', JSON.stringify({ jsonrpc: '2.0', ...INITIALIZE }));
    recorder.line('server', 'Starting...');
    await recorder.close();
    const offline = lintTranscript(parseTranscript(readFileSync(file, 'utf8')));
    assert.deepEqual(rules(live), ['stdout-not-json']);
    assert.deepEqual(live, offline);
    assert.equal(live[0]!.line, 4);
    assert.equal(
      (JSON.parse(readFileSync(file, 'utf8').split('\n')[3]!) as { type: string }).type,
      'invalid',
    );
    assert.equal(
      formatFinding({ ...live[0]!, message: 'two\nlines' }, 'live.jsonl'),
      'live.jsonl:4 stdout-not-json error two lines (STDIO-3)',
    );
    assert.equal(formatFinding({ rule: 'x', severity: 'warning', message: 'm' }), 'x warning m');
    assert.equal(
      formatFinding({ rule: 'x', severity: 'warning', message: 'm', line: 9 }),
      'line 9 x warning m',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
