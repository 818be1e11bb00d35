// `mcpwire tap -- <server>` as a host runs it: real processes on real pipes. The bytes pass unchanged
// both ways, the transcript holds what crossed, and the server's exit, the host's shutdown (stdin
// closed, SIGTERM, SIGKILL) and a failed start all come through the tap as they would without it.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { parseTranscript, type EventEntry, type MessageEntry } from '../src/wire/transcript.ts';
import { childEnv, FIXTURES, MCPWIRE, OUR_EVERYTHING, ROOT } from './support/cli-process.ts';
import { TapProcess } from '../../../test/support/tap-process.ts';

const NODE = process.execPath;

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'mcpwire-tap-'));
}

function readEntries(file: string): EventEntry[] {
  return parseTranscript(readFileSync(file, 'utf8'), file).entries;
}

function messages(entries: readonly EventEntry[], from: 'client' | 'server'): MessageEntry['message'][] {
  return entries
    .filter((entry): entry is MessageEntry => entry.type === 'message' && entry.from === from)
    .map((entry) => entry.message);
}

/** A field of a loosely typed message, for assertions. */
function field(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) at = (at as Record<string, unknown> | undefined)?.[key];
  return at;
}

const INITIALIZE = Buffer.from(
  `${JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'tap-test', version: '1' },
    },
  })}\n`,
);
// What a re-serializing proxy would change: spaces around colons and commas, a tab, a \u escape,
// characters beyond the BMP, and a CRLF line end (the stdio transport accepts the \r).
const ODD_CALL = Buffer.from(
  '{ "jsonrpc" : "2.0" ,\t"id" : 2, "method":"tools/call", "params":{"name":"echo","arguments":{"message":"caf\\u00e9 \u2615 \ud83d\ude00"}} }\r\n',
);
const INITIALIZED = Buffer.from('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
/** The notification tap-tee-server.mjs sends first (split inside the ☕ on its way out). */
const BANNER = Buffer.from(
  '{ "jsonrpc" : "2.0",\t"method": "notifications/message", "params": {"level":"info", "data": "caf\\u00e9 \u2615 \ud83d\ude00"} }\n',
);

describe('mcpwire tap over stdio', { concurrency: 2 }, () => {
  test('every byte unchanged both ways, both sides recorded, spawn and exit; closing stdin ends the server', async () => {
    const dir = scratch();
    const record = join(dir, 'session.jsonl');
    await using tap = new TapProcess([
      '--no-lint',
      '--record',
      record,
      '--',
      NODE,
      join(FIXTURES, 'tap-tee-server.mjs'),
      dir,
      ...OUR_EVERYTHING,
    ]);
    tap.child.stdin.write(INITIALIZE);
    await tap.waitForLines(2);
    tap.child.stdin.write(INITIALIZED);
    tap.child.stdin.write(ODD_CALL);
    await tap.waitForLines(3);
    // The host's shutdown, first step: stdin closed. The server exits by itself (STDIO-2), so does the tap.
    tap.child.stdin.end();
    assert.deepEqual(await tap.exited, { code: 0, signal: null });

    const received = readFileSync(join(dir, 'in.bin'));
    const sent = readFileSync(join(dir, 'out.bin'));
    assert.ok(received.equals(Buffer.concat([INITIALIZE, INITIALIZED, ODD_CALL])), received.toString());
    assert.ok(
      tap.stdout.equals(sent),
      `tap wrote:\n${tap.stdout.toString()}\nthe server sent:\n${sent.toString()}`,
    );
    assert.ok(tap.stdout.subarray(0, BANNER.length).equals(BANNER));
    assert.equal(tap.stderr, '');

    const entries = readEntries(record);
    assert.equal(entries[0]?.type, 'spawn', JSON.stringify(entries[0]));
    assert.deepEqual(entries.at(-1), { ...entries.at(-1), type: 'exit', code: 0, signal: null });
    const spawn = entries[0] as Extract<EventEntry, { type: 'spawn' }>;
    assert.equal(spawn.command, NODE);
    assert.equal(typeof spawn.pid, 'number');
    const [initialize, initialized, call] = messages(entries, 'client');
    assert.equal(field(initialize, 'method'), 'initialize');
    assert.equal(field(initialized, 'method'), 'notifications/initialized');
    assert.equal(field(call, 'params', 'arguments', 'message'), 'café ☕ 😀');
    const [banner, result, echo] = messages(entries, 'server');
    assert.equal(field(banner, 'params', 'data'), 'café ☕ 😀');
    assert.equal(field(result, 'result', 'protocolVersion'), '2025-11-25');
    assert.deepEqual(field(echo, 'result', 'content'), [{ type: 'text', text: 'café ☕ 😀' }]);
  });

  test('the official v2 client speaks to our server through the tap; the transcript has the handshake from both sides; live lint finds nothing', async () => {
    const record = join(scratch(), 'official.jsonl');
    const transport = new StdioClientTransport({
      command: MCPWIRE[0]!,
      // Live lint on (the default): a correct session gives no finding.
      args: [...MCPWIRE.slice(1), 'tap', '--record', record, '--', ...OUR_EVERYTHING],
      cwd: ROOT,
      env: childEnv(),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client(
      { name: 'official-through-tap', version: '2.0.0' },
      { versionNegotiation: { mode: 'legacy' } },
    );
    await client.connect(transport);
    const tapPid = transport.pid!;
    const tools = await client.listTools();
    assert.ok(
      tools.tools.some((tool) => tool.name === 'echo'),
      stderr,
    );
    const echoed = await client.callTool({ name: 'echo', arguments: { message: 'through the tap ✓' } });
    assert.deepEqual(echoed.content, [{ type: 'text', text: 'through the tap ✓' }]);
    await client.close();
    await exitOf(tapPid);
    assert.doesNotMatch(stderr, /^mcpwire tap:/m);

    const entries = readEntries(record);
    const sent = messages(entries, 'client').map((message) => field(message, 'method'));
    assert.deepEqual(sent.slice(0, 2), ['initialize', 'notifications/initialized']);
    assert.ok(sent.includes('tools/list') && sent.includes('tools/call'), sent.join(', '));
    const initialize = messages(entries, 'client')[0];
    assert.equal(field(initialize, 'params', 'clientInfo', 'name'), 'official-through-tap');
    const answer = messages(entries, 'server').find(
      (message) => field(message, 'id') === field(initialize, 'id'),
    );
    assert.equal(field(answer, 'result', 'serverInfo', 'name'), 'mcpwire-everything');
    assert.equal(entries[0]?.type, 'spawn');
    assert.equal(entries.at(-1)?.type, 'exit');
  });

  test("the server's own flags after -- reach it, not commander", async () => {
    await using tap = new TapProcess([
      '--no-lint',
      '--',
      NODE,
      join(FIXTURES, 'tap-args-server.mjs'),
      '--help',
      '--record',
      'x',
      '-v',
    ]);
    tap.child.stdin.end();
    assert.deepEqual(await tap.exited, { code: 0, signal: null });
    assert.equal(tap.stdout.toString(), '["--help","--record","x","-v"]\n');
  });

  test("exits with the server's exit code, and 128 + n when a signal ended it", async () => {
    const cases: Array<[string, number]> = [
      ['process.exit(7)', 7],
      ['process.kill(process.pid, "SIGTERM")', 128 + 15],
    ];
    for (const [code, expected] of cases) {
      await using tap = new TapProcess(['--no-lint', '--', NODE, '-e', code]);
      assert.equal((await tap.exited).code, expected, tap.stderr);
    }
  });

  test("SIGTERM passes on to the server; the server's stderr passes through; its exit code is the tap's", async () => {
    await using tap = new TapProcess([
      '--no-lint',
      '--',
      NODE,
      join(FIXTURES, 'tap-signal-server.mjs'),
      'graceful',
    ]);
    await tap.waitForStderr(/^ready$/m);
    tap.child.kill('SIGTERM');
    assert.equal((await tap.exited).code, 42);
    assert.equal(tap.stderr, 'ready\ngot SIGTERM\n');
    assert.equal(tap.stdout.length, 0);
  });

  test('a server that ignores stdin closing and SIGTERM is killed by the tap, which exits 128 + 9', async () => {
    const record = join(scratch(), 'stubborn.jsonl');
    await using tap = new TapProcess([
      '--no-lint',
      '--record',
      record,
      '--',
      NODE,
      join(FIXTURES, 'tap-signal-server.mjs'),
      'stubborn',
    ]);
    await tap.waitForStderr(/^ready$/m);
    tap.child.stdin.end();
    await tap.waitForStderr(/^stdin ended; staying$/m);
    tap.child.kill('SIGTERM');
    assert.equal((await tap.exited).code, 128 + 9);
    assert.match(tap.stderr, /^ignoring SIGTERM$/m);
    const entries = readEntries(record);
    assert.deepEqual(
      entries.filter((entry) => entry.type === 'exit').map(({ code, signal }) => ({ code, signal })),
      [{ code: null, signal: 'SIGKILL' }],
    );
    const { pid } = entries.find((entry) => entry.type === 'spawn')!;
    assert.throws(() => process.kill(pid!, 0), { code: 'ESRCH' });
  });

  test(
    'the host closing stdin alone ends a server that ignores it and SIGTERM: stdin, SIGTERM, SIGKILL, then the tap exits',
    { timeout: 20_000 },
    async () => {
      const record = join(scratch(), 'eof.jsonl');
      await using tap = new TapProcess([
        '--record',
        record,
        '--',
        NODE,
        join(FIXTURES, 'tap-signal-server.mjs'),
        'stubborn',
      ]);
      await tap.waitForStderr(/^ready$/m);
      // The host's whole shutdown here is closing stdin: no signal is sent to the tap.
      tap.child.stdin.end();
      assert.equal((await tap.exited).code, 128 + 9, tap.stderr);
      assert.match(tap.stderr, /^stdin ended; staying\nignoring SIGTERM$/m);
      const entries = readEntries(record);
      const { pid } = entries.find((entry) => entry.type === 'spawn')!;
      assert.throws(() => process.kill(pid!, 0), { code: 'ESRCH' });
    },
  );

  test('a command that cannot start: exit 3, what to check on stderr, nothing on stdout', async () => {
    const record = join(scratch(), 'failed.jsonl');
    await using tap = new TapProcess([
      '--no-lint',
      '--record',
      record,
      '--',
      'no-such-server-xyz',
      '--stdio',
    ]);
    assert.equal((await tap.exited).code, 3);
    assert.equal(tap.stdout.length, 0);
    assert.match(
      tap.stderr,
      /^mcpwire: cannot start the server "no-such-server-xyz": spawn no-such-server-xyz ENOENT; check that it is installed and on PATH, or give its full path\n$/,
    );
    assert.match(readFileSync(record, 'utf8'), /"type":"note".*cannot start the server/);
  });

  test('usage errors exit 2 and say what to write', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        [],
        /^mcpwire: give the server command after "--" \(mcpwire tap -- npx -y my-server\), or --http <url> --port <port>\n$/,
      ],
      [['--port', '4000', '--', NODE], /^mcpwire: --port and --host apply with --http <url>/],
      [['--http', 'ftp://example.com/mcp'], /^mcpwire: --http expects the server's http\(s\) URL/],
      [
        ['--http', 'http://127.0.0.1:1/mcp', '--', NODE],
        /^mcpwire: --http proxies a URL; it takes no server command/,
      ],
      [['--redact', 'params.x', '--', NODE], /^mcpwire: --redact "params.x": a path starts with \$/],
    ];
    for (const [args, message] of cases) {
      await using tap = new TapProcess(args);
      tap.child.stdin.end();
      assert.equal((await tap.exited).code, 2, `${args.join(' ')}: ${tap.stderr}`);
      assert.match(tap.stderr, message);
      assert.equal(tap.stdout.length, 0);
    }
  });
});

/** Resolves once process `pid` is gone (the official transport does not wait for its child). */
async function exitOf(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
