// One HTTP tap, several clients: the linter keys handshake-era traffic by Mcp-Session-Id and takes
// each 2026-07-28 request as a connection of its own (2026-07-28 checklist 3.5), so clients that
// interleave their sessions, or stateless requests that share an id, give no false findings; and a
// real fault inside one session is still found there.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventEntry, Side } from '../transcript.ts';
import { lintTranscript, type Finding } from './index.ts';

let clock = 0;
let exchanges = 0;
const rules = (findings: readonly Finding[]): string[] => findings.map((finding) => finding.rule);

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
};

/**
 * One POST as the HTTP tap records it: the request with its headers, the client's message, the
 * response's headers (`assigned`: the Mcp-Session-Id it names), the server's answer, the end.
 */
function post(
  body: Record<string, unknown>,
  options: { session?: string; assigned?: string; answer?: Record<string, unknown>; version?: string },
): EventEntry[] {
  const exchange = ++exchanges;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.session !== undefined) headers['mcp-session-id'] = options.session;
  if (options.version !== undefined) headers['mcp-protocol-version'] = options.version;
  if (typeof body.method === 'string' && META['io.modelcontextprotocol/protocolVersion'] === options.version)
    headers['mcp-method'] = body.method;
  const responseHeaders: Record<string, string> = { 'content-type': 'application/json' };
  if (options.assigned !== undefined) responseHeaders['mcp-session-id'] = options.assigned;
  const at = (type: string, rest: Record<string, unknown>): EventEntry =>
    ({ type, t: ++clock, exchange, ...rest }) as EventEntry;
  const message = (from: Side, value: Record<string, unknown>): EventEntry =>
    at('message', { from, message: { jsonrpc: '2.0', ...value } });
  return [
    at('http-request', { method: 'POST', url: 'http://127.0.0.1:1/mcp', headers }),
    message('client', body),
    at('http-response', { status: options.answer === undefined ? 202 : 200, headers: responseHeaders }),
    ...(options.answer === undefined ? [] : [message('server', options.answer)]),
    at('http-end', {}),
  ];
}

const transcript = (entries: EventEntry[]) => ({
  header: {
    type: 'header' as const,
    format: 'mcpwire-transcript' as const,
    version: 1 as const,
    recorder: 'mcpwire tap',
    transport: 'http' as const,
    target: 'http://127.0.0.1:1/mcp',
    startedAt: '2026-01-01T00:00:00.000Z',
  },
  entries,
});

const initialize = (session: string): EventEntry[] =>
  post(
    {
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: session, version: '1' },
      },
    },
    {
      assigned: session,
      answer: {
        id: 0,
        result: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 's', version: '1' },
        },
      },
    },
  );
const initialized = (session: string): EventEntry[] =>
  post({ method: 'notifications/initialized' }, { session, version: '2025-11-25' });
const listTools = (session: string, id: number): EventEntry[] =>
  post(
    { id, method: 'tools/list' },
    { session, version: '2025-11-25', answer: { id, result: { tools: [] } } },
  );

test('two clients whose handshake-era sessions interleave through one tap: no finding', () => {
  const entries = [
    ...initialize('A'),
    ...initialize('B'),
    ...initialized('B'),
    ...initialized('A'),
    ...listTools('A', 1),
    ...listTools('B', 1),
    ...listTools('B', 2),
    ...listTools('A', 2),
  ];
  assert.deepEqual(lintTranscript(transcript(entries)), []);
});

test('two clients initializing at the same time: each initialize is a session of its own', () => {
  const [aRequest, aBody, aResponse, aAnswer, aEnd] = initialize('A');
  const [bRequest, bBody, bResponse, bAnswer, bEnd] = initialize('B');
  const entries = [
    ...[aRequest!, aBody!, bRequest!, bBody!, aResponse!, bResponse!, bAnswer!, aAnswer!, bEnd!, aEnd!],
    ...initialized('B'),
    ...initialized('A'),
    ...listTools('A', 1),
    ...listTools('B', 1),
  ];
  assert.deepEqual(lintTranscript(transcript(entries)), []);
});

test('a server that assigns no session id: clients in turn, each initialize starts afresh', () => {
  const unassigned = (entries: EventEntry[]): EventEntry[] =>
    entries.map((entry) => (entry.type === 'http-response' ? { ...entry, headers: {} } : entry));
  const client = (): EventEntry[] => [
    ...unassigned(initialize('none')),
    ...post({ method: 'notifications/initialized' }, { version: '2025-11-25' }),
    ...post(
      { id: 1, method: 'tools/list' },
      { version: '2025-11-25', answer: { id: 1, result: { tools: [] } } },
    ),
  ];
  assert.deepEqual(lintTranscript(transcript([...client(), ...client()])), []);
  // Within one such connection a reused id is still a reuse.
  const twice = [...client(), ...post({ id: 1, method: 'tools/list' }, { version: '2025-11-25' })];
  assert.deepEqual(rules(lintTranscript(transcript(twice))), ['request-id-reused']);
});

test('a fault inside one session is still found there, and only there', () => {
  const entries = [
    ...initialize('A'),
    ...initialize('B'),
    ...initialized('A'),
    ...listTools('A', 1),
    // B sends a request before its notifications/initialized; A reuses its id 1.
    ...listTools('B', 1),
    ...listTools('A', 1),
  ];
  const findings = lintTranscript(transcript(entries));
  assert.deepEqual(rules(findings), ['before-handshake', 'request-id-reused']);
  assert.match(findings[0]!.message, /before notifications\/initialized/);
});

test('2026-07-28 requests are stateless: the same id on two POSTs is no reuse; discovered capabilities still count', () => {
  const stateless = (
    id: number,
    method: string,
    params: Record<string, unknown>,
    result: Record<string, unknown>,
  ) =>
    post(
      { id, method, params: { ...params, _meta: META } },
      {
        version: '2026-07-28',
        answer: { id, result: { resultType: 'complete', cacheScope: 'public', ttlMs: 0, ...result } },
      },
    );
  const discover = stateless(
    1,
    'server/discover',
    {},
    {
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} },
      serverInfo: { name: 's', version: '1' },
    },
  );
  // Two clients' calls in flight at once, both with id 1: each request is its own.
  const [aRequest, aBody, aResponse, aAnswer, aEnd] = stateless(1, 'tools/list', {}, { tools: [] });
  const [bRequest, bBody, bResponse, bAnswer, bEnd] = stateless(1, 'tools/list', {}, { tools: [] });
  const interleaved = [
    aRequest!,
    aBody!,
    bRequest!,
    bBody!,
    bResponse!,
    bAnswer!,
    aResponse!,
    aAnswer!,
    aEnd!,
    bEnd!,
  ];
  assert.deepEqual(lintTranscript(transcript([...discover, ...interleaved])), []);
  // The discovered capabilities follow into later requests: prompts were not declared.
  const prompts = stateless(2, 'prompts/list', {}, { prompts: [] });
  assert.deepEqual(rules(lintTranscript(transcript([...discover, ...prompts]))), ['capability-not-declared']);
});
