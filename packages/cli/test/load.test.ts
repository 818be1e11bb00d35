// `mcpwire load` as a script runs it: against a fixture server that counts each request it serves
// (LOAD_COUNT_FILE), over stdio (one process, or several) and Streamable HTTP in both eras; the
// request count, --json's shape, --assert's exit codes, scenario weights and templates, errors by
// kind, and the open model. No timing thresholds: only counts and shapes are asserted.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { FIXTURES, MCPWIRE, runCli } from './support/cli-process.ts';
import { PtyProcess } from './support/pty-process.ts';

const SERVER = join(FIXTURES, 'load-server.ts');
const dir = mkdtempSync(join(tmpdir(), 'mcpwire-load-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** A fresh count file and the options that hand it to a stdio server. */
function countFile(): { file: string; env: string[] } {
  const file = join(dir, `count-${++files}.txt`);
  writeFileSync(file, '');
  return { file, env: ['-e', `LOAD_COUNT_FILE=${file}`] };
}

/** The lines the server wrote, one per request it served. */
function served(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

function stdioServer(): string[] {
  return ['--', ...MCPWIRE, 'serve', SERVER];
}

/** The fixture over HTTP (`mcpwire serve <file> --http 0` on a pty); dispose to stop it. */
async function httpServer(file: string): Promise<AsyncDisposable & { url: string }> {
  const pty = new PtyProcess([...MCPWIRE, 'serve', SERVER, '--http', '0'], {
    env: { LOAD_COUNT_FILE: file },
  });
  try {
    const url = await pty.waitFor(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
    return { url, [Symbol.asyncDispose]: () => pty[Symbol.asyncDispose]() };
  } catch (error) {
    await pty[Symbol.asyncDispose]();
    throw error;
  }
}

interface LoadJson {
  target: string;
  transport: string;
  era: string;
  config: { mode: string; concurrency: number; connections: number; requests?: number; rate?: number };
  totals: { requests: number; ok: number; errors: number; warmupRequests: number; durationMs: number };
  rps: number;
  latencyMs: Record<'min' | 'mean' | 'p50' | 'p90' | 'p99' | 'p999' | 'max', number>;
  histogram: { buckets: Array<{ fromMs: number; toMs: number; count: number }> };
  errors: {
    total: number;
    rate: number;
    byKind: Array<{ kind: string; code?: number; count: number; firstMessage: string }>;
  };
  steps: Array<{ step: string; weight: number; count: number }>;
  schedule?: { scheduled: number; sent: number; late: number; dropped: number };
  server:
    { processes: Array<{ pid: number; cpuMs: number; peakRssBytes: number }> } | { unavailable: string };
  driver: { cpuMs: number };
  assertions: Array<{ expression: string; passed: boolean; actual: number }>;
}

function parse(stdout: string): LoadJson {
  return JSON.parse(stdout) as LoadJson;
}

describe('mcpwire load over stdio', { concurrency: 3 }, () => {
  test('--requests N makes exactly N measured calls after the warm-up; --json has every part', async () => {
    const { file, env } = countFile();
    const run = await runCli([
      'load',
      ...env,
      '--call',
      'echo',
      'message=hi',
      '--requests',
      '60',
      '--warmup',
      '5',
      '--concurrency',
      '4',
      '--json',
      ...stdioServer(),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const calls = served(file).filter((line) => line.startsWith('echo '));
    assert.equal(calls.length, 65, 'the server saw 60 measured and 5 warm-up calls');
    const result = parse(run.stdout);
    assert.deepEqual(
      [result.transport, result.config.mode, result.config.concurrency, result.config.connections],
      ['stdio', 'closed', 4, 1],
    );
    assert.equal(result.config.requests, 60);
    assert.deepEqual(
      [result.totals.requests, result.totals.ok, result.totals.errors, result.totals.warmupRequests],
      [60, 60, 0, 5],
    );
    assert.ok(result.rps > 0);
    const { min, p50, p90, p99, p999, max, mean } = result.latencyMs;
    assert.ok(min > 0 && min <= p50 && p50 <= p90 && p90 <= p99 && p99 <= p999 && p999 <= max, run.stdout);
    assert.ok(mean >= min && mean <= max);
    assert.equal(
      result.histogram.buckets.reduce((sum, bucket) => sum + bucket.count, 0),
      60,
    );
    assert.deepEqual(result.errors, { total: 0, rate: 0, byKind: [] });
    assert.deepEqual(result.steps, [{ step: 'call echo', weight: 1, count: 60 }]);
    assert.ok(result.driver.cpuMs > 0);
    if (process.platform === 'linux') {
      assert.ok('processes' in result.server, JSON.stringify(result.server));
      assert.equal(result.server.processes.length, 1);
      assert.ok(result.server.processes[0]!.cpuMs >= 0);
      assert.ok(result.server.processes[0]!.peakRssBytes > 1_000_000);
    }
    assert.deepEqual(result.assertions, []);
  });

  test('--connections 2 starts two server processes and spreads the calls over them', async () => {
    const { file, env } = countFile();
    const run = await runCli([
      'load',
      ...env,
      '--call',
      'echo',
      'message=spread',
      '--requests',
      '40',
      '--warmup',
      '0',
      '--concurrency',
      '4',
      '--connections',
      '2',
      '--json',
      ...stdioServer(),
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(served(file).length, 40);
    const result = parse(run.stdout);
    assert.equal(result.config.connections, 2);
    if (process.platform === 'linux') {
      assert.ok('processes' in result.server);
      assert.equal(new Set(result.server.processes.map((child) => child.pid)).size, 2);
    }
  });

  test('--assert: exit 0 when every assertion holds, 1 naming each one violated, 2 for a bad one', async () => {
    const met = await runCli([
      'load',
      '--call',
      'echo',
      'message=a',
      '--requests',
      '20',
      '--warmup',
      '0',
      '--assert',
      'errors=0,max>=0ms,error_rate<0.5',
      ...stdioServer(),
    ]);
    assert.equal(met.code, 0, met.stderr);
    assert.match(met.stdout, /errors=0 +passed/);
    const violated = await runCli([
      'load',
      '--call',
      'echo',
      'message=a',
      '--requests',
      '20',
      '--warmup',
      '0',
      '--json',
      '--assert',
      'errors>0,p99<0us,errors=0',
      ...stdioServer(),
    ]);
    assert.equal(violated.code, 1, violated.stderr);
    assert.match(violated.stderr, /assertion failed: errors>0 \(errors was 0\)/);
    assert.match(violated.stderr, /assertion failed: p99<0us \(p99 was [\d.]+ ms\)/);
    assert.doesNotMatch(violated.stderr, /assertion failed: errors=0/);
    assert.deepEqual(
      parse(violated.stdout).assertions.map(({ expression, passed }) => [expression, passed]),
      [
        ['errors>0', false],
        ['p99<0us', false],
        ['errors=0', true],
      ],
    );
    const { file, env } = countFile();
    const bad = await runCli([
      'load',
      ...env,
      '--call',
      'echo',
      'message=a',
      '--assert',
      'p98<5ms',
      ...stdioServer(),
    ]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /"p98<5ms"/);
    assert.match(bad.stderr, /p50\|p90\|p99\|p999\|max\|mean/);
    assert.deepEqual(served(file), [], 'nothing was sent');
  });

  test('a scenario: weights honoured with a fixed --seed, templates filled in, typed by the schema', async () => {
    const { file, env } = countFile();
    const scenario = join(dir, 'mix.json');
    writeFileSync(
      scenario,
      JSON.stringify({
        steps: [
          {
            weight: 6,
            call: 'echo',
            arguments: { message: 'hi {{i}} from {{worker}}', n: '{{random 1 9}}' },
          },
          { weight: 3, read: 'load://item/{{random 1 100}}' },
          { weight: 1, get: 'greeting', arguments: { name: '{{pick ada grace linus}}' } },
        ],
      }),
    );
    const run = await runCli([
      'load',
      ...env,
      '--scenario',
      scenario,
      '--requests',
      '400',
      '--warmup',
      '0',
      '--concurrency',
      '3',
      '--seed',
      '7',
      '--json',
      ...stdioServer(),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const lines = served(file);
    const echo = lines.filter((line) => line.startsWith('echo '));
    const reads = lines.filter((line) => line.startsWith('read '));
    const gets = lines.filter((line) => line.startsWith('get '));
    assert.equal(echo.length + reads.length + gets.length, 400);
    // Expected 240, 120, 40; five standard deviations of a binomial either side.
    assert.ok(Math.abs(echo.length - 240) <= 50, `echo ${echo.length}`);
    assert.ok(Math.abs(reads.length - 120) <= 46, `reads ${reads.length}`);
    assert.ok(Math.abs(gets.length - 40) <= 30, `gets ${gets.length}`);
    assert.deepEqual(
      parse(run.stdout).steps.map(({ step, count }) => [step, count]),
      [
        ['call echo', echo.length],
        ['read load://item/{{random 1 100}}', reads.length],
        ['get greeting', gets.length],
      ],
    );
    // {{i}} is the request's number (distinct), {{worker}} 0..2, n a number as the schema says.
    const messages = echo.map((line) => /^echo (hi (\d+) from (\d+)) number$/.exec(line));
    assert.ok(messages.every(Boolean), echo.slice(0, 3).join('\n'));
    assert.equal(new Set(messages.map((match) => match![2])).size, echo.length);
    assert.ok(messages.every((match) => ['0', '1', '2'].includes(match![3]!)));
    assert.ok(
      reads.every((line) => /^read load:\/\/item\/([1-9]\d?|100)$/.test(line)),
      reads[0],
    );
    assert.ok(
      gets.every((line) => /^get (ada|grace|linus)$/.test(line)),
      gets[0],
    );
    // The same seed picks the same mix again.
    const { file: again, env: againEnv } = countFile();
    const rerun = await runCli([
      'load',
      ...againEnv,
      '--scenario',
      scenario,
      '--requests',
      '400',
      '--warmup',
      '0',
      '--concurrency',
      '1',
      '--seed',
      '7',
      '--json',
      ...stdioServer(),
    ]);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.deepEqual(
      parse(rerun.stdout).steps.map(({ count }) => count),
      [echo.length, reads.length, gets.length].map((_, index) => parse(run.stdout).steps[index]!.count),
    );
    assert.equal(served(again).length, 400);
  });

  test('a bad scenario or an unknown tool is a usage error (exit 2) naming it; nothing is sent', async () => {
    const { file, env } = countFile();
    const badWeight = join(dir, 'bad-weight.json');
    writeFileSync(badWeight, JSON.stringify({ steps: [{ weight: -1, call: 'echo' }] }));
    const weight = await runCli(['load', ...env, '--scenario', badWeight, ...stdioServer()]);
    assert.equal(weight.code, 2, weight.stderr);
    assert.match(weight.stderr, /steps\[0\]\.weight/);
    const unknown = join(dir, 'unknown-tool.json');
    writeFileSync(
      unknown,
      JSON.stringify({ steps: [{ call: 'echo', arguments: { message: 'x' } }, { call: 'no_such_tool' }] }),
    );
    const tool = await runCli(['load', ...env, '--scenario', unknown, '--requests', '5', ...stdioServer()]);
    assert.equal(tool.code, 2, tool.stderr);
    assert.match(tool.stderr, /unknown tool "no_such_tool"/);
    const template = await runCli([
      'load',
      ...env,
      '--call',
      'echo',
      'message={{random 9 1}}',
      '--requests',
      '5',
      ...stdioServer(),
    ]);
    assert.equal(template.code, 2, template.stderr);
    assert.match(template.stderr, /\{\{random 9 1\}\}/);
    assert.deepEqual(served(file), []);
  });

  test('errors by kind: a failing tool counts as tool_error with its first message, escaped', async () => {
    const json = await runCli([
      'load',
      '--call',
      'fail',
      '--requests',
      '10',
      '--warmup',
      '0',
      '--json',
      ...stdioServer(),
    ]);
    assert.equal(json.code, 0, json.stderr);
    const result = parse(json.stdout);
    assert.deepEqual(
      [
        result.totals.requests,
        result.totals.ok,
        result.totals.errors,
        result.errors.total,
        result.errors.rate,
      ],
      [10, 0, 10, 10, 1],
    );
    assert.equal(result.errors.byKind.length, 1);
    assert.equal(result.errors.byKind[0]!.kind, 'tool_error');
    assert.equal(result.errors.byKind[0]!.count, 10);
    assert.match(result.errors.byKind[0]!.firstMessage, /it failed/);
    const text = await runCli([
      'load',
      '--call',
      'fail',
      '--requests',
      '3',
      '--warmup',
      '0',
      ...stdioServer(),
    ]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /tool_error +3/);
    assert.match(text.stdout, /it failed \\x1b\[31mred/);
    assert.doesNotMatch(text.stdout, /\x1b/);
  });

  test('an answer over --max-message-size fails its request at once, as the Client fails its own; the run goes on', async () => {
    // The echo's answer carries the 5,000-byte message: over the 4 KiB limit, while the handshake
    // fits. The first request goes through the Client, the others through the wire engine: each
    // must fail when its answer is discarded, not wait for --timeout.
    const json = await runCli([
      'load',
      '--call',
      'echo',
      `message=${'x'.repeat(5000)}`,
      '--requests',
      '5',
      '--warmup',
      '0',
      '--max-message-size',
      '4096',
      '--timeout',
      '30',
      '--json',
      ...stdioServer(),
    ]);
    assert.equal(json.code, 0, json.stderr);
    const result = parse(json.stdout);
    assert.deepEqual([result.totals.requests, result.totals.errors], [5, 5]);
    assert.deepEqual(
      result.errors.byKind.map(({ kind, count }) => ({ kind, count })),
      [{ kind: 'transport', count: 5 }],
    );
    assert.match(result.errors.byKind[0]!.firstMessage, /over the limit of 4096 bytes/);
  });

  test("a server's request in the middle of the run reaches the Client, which answers it; an error response counts by its code", async () => {
    // The 5th call's answer is held until the Client has answered the server's ping: were the ping
    // kept from the Client, the call would wait for --timeout and count as timeout.
    const pongs = join(dir, `pong-${++files}.txt`);
    writeFileSync(pongs, '');
    const json = await runCli([
      'load',
      '--era',
      'handshake',
      '--call',
      'echo',
      'message=hi',
      '--requests',
      '10',
      '--warmup',
      '0',
      '--concurrency',
      '1',
      '--timeout',
      '30',
      '-e',
      `LOAD_PONG_FILE=${pongs}`,
      '--json',
      '--',
      process.execPath,
      join(FIXTURES, 'load-raw-server.mjs'),
    ]);
    assert.equal(json.code, 0, json.stderr);
    const result = parse(json.stdout);
    assert.deepEqual([result.totals.requests, result.totals.ok, result.totals.errors], [10, 9, 1]);
    assert.deepEqual(
      result.errors.byKind.map(({ kind, code, count, firstMessage }) => ({
        kind,
        code,
        count,
        firstMessage,
      })),
      [{ kind: 'rpc_error', code: -32000, count: 1, firstMessage: 'the seventh fails' }],
    );
    assert.equal(readFileSync(pongs, 'utf8'), 'pong\n');
  });

  test('--rate with --duration: the open model sends on a timetable; sent plus dropped is what was scheduled', async () => {
    const { file, env } = countFile();
    const run = await runCli([
      'load',
      ...env,
      '--call',
      'echo',
      'message=open',
      '--rate',
      '40',
      '--duration',
      '1s',
      '--warmup',
      '0',
      '--json',
      ...stdioServer(),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const result = parse(run.stdout);
    assert.equal(result.config.mode, 'open');
    assert.equal(result.config.rate, 40);
    assert.ok(result.schedule !== undefined);
    assert.equal(result.schedule.scheduled, 40);
    assert.equal(result.schedule.sent + result.schedule.dropped, 40);
    assert.equal(result.totals.requests, result.schedule.sent);
    assert.equal(served(file).length, result.schedule.sent);
  });
});

describe('mcpwire load over Streamable HTTP', { concurrency: 2 }, () => {
  for (const era of ['handshake', 'stateless'] as const) {
    test(`--era ${era}: --requests N over --connections 2 clients makes exactly N calls`, async () => {
      const { file } = countFile();
      await using server = await httpServer(file);
      const run = await runCli([
        'load',
        server.url,
        '--era',
        era,
        '--call',
        'echo',
        'message=over-http',
        '--requests',
        '50',
        '--warmup',
        '3',
        '--concurrency',
        '4',
        '--connections',
        '2',
        '--json',
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(served(file).length, 53);
      const result = parse(run.stdout);
      assert.deepEqual([result.transport, result.era], ['http', era]);
      assert.deepEqual([result.totals.requests, result.totals.errors], [50, 0]);
      assert.ok('unavailable' in result.server, 'no process to measure behind a URL');
    });
  }
});
