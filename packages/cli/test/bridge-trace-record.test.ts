// `--trace` and `--record <file>` on the bridge (issue 25), as on the other commands: the messages the
// bridge exchanges with its client, on stderr (escaped) or in a transcript that `mcpwire report` and
// `mcpwire replay` read. Real processes: `bridge <url>` on stdio and `bridge --http 0 <url>`, in front
// of `mcpwire serve everything --http 0`.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { StdioClientTransport } from 'mcpwire/stdio';
import { ourCliCommand } from '../../../test/support/node-options.ts';
import { BridgeProcess } from './support/bridge-process.ts';
import { runCli } from './support/cli-process.ts';
import { startOurHttpServer, type HttpServer } from './support/http-servers.ts';

const info = { name: 'bridge-trace-test', version: '1.0.0' };
const LONG = { timeout: 120_000 };
/** An OSC 52 clipboard write: acted on if it reached a terminal raw. */
const ESCAPE = '\u001b]52;c;AAAA\u0007';

function textOf(result: object): string {
  const [first] = ((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>;
  assert.equal(first?.type, 'text', JSON.stringify(result));
  return first.text!;
}

/** The transcript's lines, parsed. */
function readTranscript(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function methodsFrom(entries: Array<Record<string, unknown>>, from: 'client' | 'server'): unknown[] {
  return entries
    .filter((entry) => entry.type === 'message' && entry.from === from)
    .map((entry) => (entry.message as { method?: unknown }).method);
}

describe('bridge --trace and --record', () => {
  let remote: HttpServer;
  let dir: string;
  before(async () => {
    remote = await startOurHttpServer(['everything']);
    dir = mkdtempSync(join(tmpdir(), 'mcpwire-bridge-record-'));
  });
  after(async () => {
    await remote?.[Symbol.asyncDispose]();
    rmSync(dir, { recursive: true, force: true });
  });

  test(
    'bridge <url> --trace --record: stderr shows the messages escaped; replay serves the transcript',
    LONG,
    async () => {
      const file = join(dir, 'stdio.jsonl');
      let stderr = '';
      const client = new Client(info, { era: 'handshake', eraCache: false, requestTimeoutMs: 60_000 });
      await client.connect(
        new StdioClientTransport({
          ...ourCliCommand('bridge', remote.url, '--trace', '--record', file),
          stderr: (text: string) => (stderr += text),
        }),
      );
      try {
        const echoed = await client.callTool({ name: 'echo', arguments: { message: `hi ${ESCAPE}` } });
        assert.equal(textOf(echoed), `hi ${ESCAPE}`, 'the message itself passes unchanged');
      } finally {
        await client.close();
      }
      assert.match(stderr, /tools\/call/, stderr);
      assert.match(stderr, /initialize/);
      assert.doesNotMatch(stderr, /\u001b\]52/, 'the escape reached the terminal raw');

      const entries = readTranscript(file);
      assert.equal(entries[0]?.format, 'mcpwire-transcript');
      assert.equal(entries[0]?.recorder, 'mcpwire bridge');
      assert.equal(entries[0]?.transport, 'stdio');
      const sent = methodsFrom(entries, 'client');
      assert.deepEqual(sent.slice(0, 2), ['initialize', 'notifications/initialized']);
      assert.ok(sent.includes('tools/call'), JSON.stringify(sent));

      const replayed = new Client(info, { era: 'handshake', eraCache: false, requestTimeoutMs: 60_000 });
      await replayed.connect(new StdioClientTransport(ourCliCommand('replay', file)));
      try {
        const again = await replayed.callTool({ name: 'echo', arguments: { message: `hi ${ESCAPE}` } });
        assert.equal(textOf(again), `hi ${ESCAPE}`);
      } finally {
        await replayed.close();
      }
    },
  );

  test('bridge --http 0 <url> --record: both eras in the transcript; report draws it', LONG, async () => {
    const file = join(dir, 'http.jsonl');
    const bridge = new BridgeProcess(['--http', '0', '--record', file, remote.url]);
    await using _bridge = bridge;
    const [, url] = await bridge.waitForStderr(/bridging (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    for (const era of ['handshake', 'stateless'] as const) {
      const client = new Client(info, { era, eraCache: false, requestTimeoutMs: 60_000 });
      await client.connect(new StreamableHttpClientTransport(url!));
      try {
        const echoed = await client.callTool({ name: 'echo', arguments: { message: `via ${era}` } });
        assert.equal(textOf(echoed), `via ${era}`);
      } finally {
        await client.close();
      }
    }
    bridge.child.kill('SIGTERM');
    assert.deepEqual(await bridge.exited, { code: 0, signal: null }, bridge.stderr);

    const entries = readTranscript(file);
    assert.equal(entries[0]?.recorder, 'mcpwire bridge');
    assert.equal(entries[0]?.transport, 'http');
    const calls = entries.filter(
      (entry) =>
        entry.type === 'message' &&
        entry.from === 'server' &&
        JSON.stringify(entry.message).includes('"text":"via '),
    );
    assert.equal(calls.length, 2, JSON.stringify(entries));
    assert.ok(methodsFrom(entries, 'client').includes('initialize'));
    assert.ok(methodsFrom(entries, 'client').includes('server/discover'));

    const report = await runCli(['report', file, '-o', join(dir, 'http.html')]);
    assert.equal(report.code, 0, report.stderr);
    assert.match(readFileSync(join(dir, 'http.html'), 'utf8'), /via stateless/);
  });
});
