// `mcpwire demo` run as a person runs it (a child process from source, cwd the repository root): in
// both eras, over stdio and Streamable HTTP, with --raw parsed back into messages to check what the
// wire showed; and the plain output: correlation, no colour off a terminal, `| head -3`.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MCPWIRE, runCli, runCliIntoHead } from './support/cli-process.ts';
import { PtyProcess } from './support/pty-process.ts';
import type { Loose, WireMessage } from '../../../test/support/raw-server-process.ts';

/** A demo run under tsx spawns one or two servers; give it room on a busy machine. */
const RUN_TIMEOUT_MS = 90_000;

/** One message line of --raw output. */
interface WireLine {
  direction: 'sent' | 'received';
  message: WireMessage;
}

/** A --raw run split at its `# == N.` headings: step number -> its messages (and all lines). */
interface RawRun {
  steps: Map<number, WireLine[]>;
  lines: string[];
}

async function runRaw(args: readonly string[]): Promise<RawRun> {
  const { code, stdout, stderr } = await runCli(['demo', '--raw', ...args], { timeoutMs: RUN_TIMEOUT_MS });
  assert.equal(code, 0, `${stdout}\n${stderr}`);
  assert.doesNotMatch(stdout, /\x1b\[/, 'no colour when stdout is not a terminal');
  const lines = stdout.split('\n').filter((line) => line !== '');
  const steps = new Map<number, WireLine[]>();
  let step = 0;
  for (const line of lines) {
    const heading = /^# == (\d+)\./.exec(line);
    if (heading) step = Number(heading[1]);
    if (!line.startsWith('→ ') && !line.startsWith('← ')) continue;
    const message = JSON.parse(line.slice(2)) as WireMessage;
    assert.equal(message.jsonrpc, '2.0', line);
    steps.set(step, [
      ...(steps.get(step) ?? []),
      { direction: line.startsWith('→') ? 'sent' : 'received', message },
    ]);
  }
  assert.match(lines.at(-1) ?? '', /^demo: all \d+ checks passed in [\d.]+ s: \d+ messages/);
  assert.doesNotMatch(stdout, /✗/);
  return { steps, lines };
}

function step(run: RawRun, number: number): WireLine[] {
  return run.steps.get(number) ?? [];
}

/** The messages of step `number` and every step after it. */
function after(run: RawRun, number: number): WireLine[] {
  return [...run.steps].filter(([n]) => n >= number).flatMap(([, lines]) => lines);
}

function request(
  lines: WireLine[],
  direction: WireLine['direction'],
  method: string,
  name?: string,
): WireMessage {
  const found = lines.find(
    ({ direction: d, message }) =>
      d === direction &&
      message.method === method &&
      message.id !== undefined &&
      (name === undefined || message.params?.name === name),
  );
  assert.ok(found, `no ${method}${name === undefined ? '' : ` ${name}`} ${direction}`);
  return found.message;
}

function responsesTo(lines: WireLine[], direction: WireLine['direction'], id: unknown): WireMessage[] {
  return lines
    .filter(
      ({ direction: d, message }) => d === direction && message.method === undefined && message.id === id,
    )
    .map(({ message }) => message);
}

function notifications(lines: WireLine[], direction: WireLine['direction'], method: string): Loose[] {
  return lines
    .filter(
      ({ direction: d, message }) => d === direction && message.method === method && message.id === undefined,
    )
    .map(({ message }) => message.params);
}

/** The handshake-era story (stdio or HTTP): what every transport must show. */
function assertHandshakeStory(run: RawRun): void {
  assertHandshakeNegotiation(run);
  const initialize = request(step(run, 2), 'sent', 'initialize');
  assert.deepEqual(Object.keys(initialize.params.capabilities).sort(), ['elicitation', 'roots', 'sampling']);
  assertServerRequestAnswered(step(run, 7), 'sampling/createMessage', (result) =>
    assert.equal(result.model, 'demo-canned-model'),
  );
  assertServerRequestAnswered(step(run, 9), 'elicitation/create', (result) =>
    assert.deepEqual(result, { action: 'accept', content: { confirm: true } }),
  );
  assertProgress(step(run, 6));
  assert.equal(
    notifications(step(run, 8), 'received', 'notifications/resources/updated')[0]?.uri,
    'github://repos/acme/webapp/issues/157',
  );
  assertHandshakeCancellation(run);
}

/** Step 1: -32602 for "1.0", then the server's own version for a later date, which the host accepts. */
function assertHandshakeNegotiation(run: RawRun): void {
  const [refused, downgraded] = step(run, 1).filter(({ direction }) => direction === 'received');
  assert.equal(refused?.message.error?.code, -32602);
  assert.equal(refused?.message.error?.message, 'Unsupported protocol version');
  assert.deepEqual(refused?.message.error?.data, {
    supported: ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
    requested: '1.0',
  });
  const asked = step(run, 1)
    .filter(({ message }) => message.method === 'initialize')
    .map(({ message }) => message.params.protocolVersion);
  assert.deepEqual(asked, ['1.0', '2026-01-26']);
  assert.equal(
    downgraded?.message.result?.protocolVersion,
    '2025-11-25',
    'the server answers its own version',
  );
  assert.equal(
    notifications(step(run, 1), 'sent', 'notifications/initialized').length,
    1,
    'the host accepts it',
  );
}

/** Step 10: the host cancels the call, the server its sampling request; neither gets a response, ever. */
function assertHandshakeCancellation(run: RawRun): void {
  const rest = after(run, 10);
  const cancelled = request(step(run, 10), 'sent', 'tools/call', 'summarize_issue');
  const sampling = request(step(run, 10), 'received', 'sampling/createMessage');
  assert.deepEqual(
    notifications(step(run, 10), 'sent', 'notifications/cancelled').map((p) => p.requestId),
    [cancelled.id],
  );
  assert.deepEqual(
    notifications(step(run, 10), 'received', 'notifications/cancelled').map((p) => p.requestId),
    [sampling.id],
  );
  assert.deepEqual(responsesTo(rest, 'received', cancelled.id), [], 'no response to the cancelled call');
  assert.deepEqual(responsesTo(rest, 'sent', sampling.id), [], 'no answer to the cancelled sampling request');
}

/** The server asked `method` while the tools/call was open, the host answered, then the call completed. */
function assertServerRequestAnswered(
  lines: WireLine[],
  method: string,
  check: (result: Loose) => void,
): void {
  const asked = request(lines, 'received', method);
  const [answer] = responsesTo(lines, 'sent', asked.id);
  assert.ok(answer?.result, `the host answered ${method}`);
  check(answer.result);
  const call = request(lines, 'sent', 'tools/call');
  const [response] = responsesTo(lines, 'received', call.id);
  assert.ok(response?.result && response.result.isError !== true, `the call completed after ${method}`);
}

function assertProgress(lines: WireLine[]): void {
  const call = request(lines, 'sent', 'tools/call', 'search_issues');
  const token = call.params._meta.progressToken;
  const progress = notifications(lines, 'received', 'notifications/progress');
  assert.deepEqual(
    progress.map((p) => [p.progressToken, p.progress]),
    [
      [token, 1],
      [token, 2],
      [token, 3],
      [token, 4],
    ],
  );
  assert.equal(responsesTo(lines, 'received', call.id).length, 1);
}

/** The 2026-07-28 story: no initialize, _meta everywhere, two rounds per input, listen. */
function assertStatelessStory(run: RawRun): void {
  const [refused, discovered] = step(run, 1).filter(({ direction }) => direction === 'received');
  assert.equal(refused?.message.error?.code, -32022);
  assert.deepEqual(refused?.message.error?.data, { supported: ['2026-07-28'], requested: '2027-01-26' });
  assert.deepEqual(discovered?.message.result?.supportedVersions, ['2026-07-28']);
  const main = after(run, 2);
  assert.equal(main.filter(({ message }) => message.method === 'initialize').length, 0);
  for (const { message } of main.filter(
    ({ direction, message }) => direction === 'sent' && message.id !== undefined,
  ))
    assert.equal(
      message.params._meta['io.modelcontextprotocol/protocolVersion'],
      '2026-07-28',
      message.method,
    );
  assertInputRounds(step(run, 7), 'summarize_issue', { key: 'summary', method: 'sampling/createMessage' });
  assertInputRounds(step(run, 9), 'update_issue', { key: 'confirm_state', method: 'elicitation/create' });
  assertProgress(step(run, 6));
  const listen = request(step(run, 5), 'sent', 'subscriptions/listen');
  const acknowledged = notifications(step(run, 5), 'received', 'notifications/subscriptions/acknowledged')[0];
  assert.equal(acknowledged?._meta['io.modelcontextprotocol/subscriptionId'], listen.id);
  const [updated] = notifications(step(run, 8), 'received', 'notifications/resources/updated');
  assert.equal(updated?._meta['io.modelcontextprotocol/subscriptionId'], listen.id);
  assert.deepEqual(
    responsesTo(main, 'received', listen.id),
    [],
    'the cancelled listen request gets no response',
  );
}

function assertInputRounds(lines: WireLine[], tool: string, input: { key: string; method: string }): void {
  const calls = lines.filter(
    ({ direction, message }) => direction === 'sent' && message.method === 'tools/call',
  );
  assert.deepEqual(
    calls.map(({ message }) => message.params.name),
    [tool, tool],
  );
  const [first, second] = calls.map(({ message }) => responsesTo(lines, 'received', message.id)[0]?.result);
  assert.equal(first?.resultType, 'input_required');
  assert.equal(first?.inputRequests[input.key].method, input.method);
  const retry = calls[1]!.message.params;
  assert.ok(retry.inputResponses[input.key], `round 2 answers ${input.key}`);
  assert.equal(retry.requestState, first?.requestState, 'the requestState is echoed as received');
  assert.notEqual(calls[0]!.message.id, calls[1]!.message.id);
  assert.equal(second?.resultType, 'complete');
}

describe('mcpwire demo --raw over stdio', () => {
  test('stdio, handshake era: downgrade, -32602, sampling, elicitation, progress, cancellation, update, shutdown', async () => {
    const run = await runRaw([]);
    assertHandshakeStory(run);
    assert.ok(run.lines.includes('# ✓ the server exited with code 0 after stdin closed'));
  });

  test('stdio, 2026-07-28: -32022, server/discover, input_required rounds, listen and its cancellation', async () => {
    const run = await runRaw(['--era', 'stateless']);
    assertStatelessStory(run);
    assert.deepEqual(
      notifications(step(run, 10), 'sent', 'notifications/cancelled').map((p) => p.requestId),
      [request(step(run, 5), 'sent', 'subscriptions/listen').id],
    );
  });
});

describe('mcpwire demo --http', () => {
  test('Streamable HTTP, handshake era: the same story, with each exchange, its headers and SSE event ids', async () => {
    const run = await runRaw(['--http']);
    assertHandshakeStory(run);
    const http = run.lines.filter((line) => line.startsWith('HTTP ') || line.startsWith('  SSE '));
    assert.ok(
      http.some((line) =>
        /^HTTP POST \/mcp {2}⇒ 200 OK {2}application\/json {2}Mcp-Session-Id: \S+ \(assigned\)$/.test(line),
      ),
    );
    assert.ok(
      http.some((line) =>
        /^HTTP POST \/mcp {2}Mcp-Session-Id: \S+ {2}MCP-Protocol-Version: 2025-11-25 {2}⇒ 202 Accepted$/.test(
          line,
        ),
      ),
    );
    assert.ok(http.some((line) => /^ {2}SSE event id \S+: carries sampling\/createMessage$/.test(line)));
    assert.match(
      http.at(-1) ?? '',
      /^HTTP DELETE \/mcp {2}Mcp-Session-Id: \S+ {2}MCP-Protocol-Version: 2025-11-25 {2}⇒ 204 No Content$/,
    );
  });

  test('Streamable HTTP, 2026-07-28: Mcp-Method headers, and the listen stream closed instead of a cancel posted', async () => {
    const run = await runRaw(['--http', '--era', 'stateless']);
    assertStatelessStory(run);
    assert.ok(
      run.lines.some((line) =>
        /^HTTP POST \/mcp {2}MCP-Protocol-Version: 2026-07-28 {2}Mcp-Method: tools\/call {2}Mcp-Name: create_issue {2}⇒ 200 OK/.test(
          line,
        ),
      ),
    );
    assert.deepEqual(notifications(step(run, 10), 'sent', 'notifications/cancelled'), []);
    assert.ok(run.lines.includes('  SSE stream of subscriptions/listen closed by the host'));
    assert.ok(!run.lines.some((line) => line.startsWith('HTTP DELETE')));
  });
});

describe('mcpwire demo, plain output', () => {
  test('the plain output: direction, id correlation, elapsed time, JSON laid out, no colour off a terminal', async () => {
    const { code, stdout } = await runCli(['demo'], { timeoutMs: RUN_TIMEOUT_MS });
    assert.equal(code, 0, stdout);
    assert.doesNotMatch(stdout, /\x1b\[/);
    assert.match(
      stdout,
      /\n\+\d+\.\d{3}s host → server {2}#3 tools\/call create_issue\n {4}\{\n {6}"jsonrpc": "2\.0",\n/,
    );
    assert.match(
      stdout,
      /\n\+\d+\.\d{3}s server → host {2}#3 \(answers tools\/call create_issue, \d+ ms\)\n/,
    );
    assert.match(
      stdout,
      /\n\+\d+\.\d{3}s server → host {2}#1 \(error -32602, answers initialize, \d+ ms\)\n/,
    );
    for (const line of stdout.split('\n').filter((text) => text.startsWith('    ')))
      assert.ok(line.length <= 100 || !line.endsWith('…'), `a cut line fits 100 columns: ${line}`);
  });

  test('"mcpwire demo | head -3" stops quietly: three lines, exit 0, no stack trace', async () => {
    const { head, code, stderr } = await runCliIntoHead(['demo'], 3);
    assert.equal(head.split('\n').length, 4, head);
    assert.match(head, /^mcpwire demo: a host drives/);
    assert.deepEqual([code, stderr], [0, '']);
  });
});

describe('mcpwire demo on a terminal', () => {
  test('is coloured, unless NO_COLOR is set', async () => {
    await using coloured = new PtyProcess([...MCPWIRE, 'demo']);
    assert.equal((await coloured.exited).exitCode, 0, coloured.text);
    assert.match(coloured.raw, /\x1b\[36mhost → server\x1b\[39m/);
    await using plain = new PtyProcess([...MCPWIRE, 'demo'], { env: { NO_COLOR: '1' } });
    assert.equal((await plain.exited).exitCode, 0, plain.text);
    assert.match(plain.raw, /host → server/);
    assert.doesNotMatch(plain.raw, /\x1b\[\d+m/);
  });
});
