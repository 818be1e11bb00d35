// `mcpwire bridge --http` toward the child (issue 25, "byte-exact"): a client's request reaches the
// stdio child as the bytes the client POSTed, one line, when nothing in it needs translating; a body
// whose JSON holds raw newlines between tokens still reaches it as one line, the same message.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BRIDGE_CHILD, BridgeProcess } from './support/bridge-process.ts';
import { openSession, post, resultText } from './support/raw-bridge-rpc.ts';

const RECORD_STDIN = join(import.meta.dirname, 'fixtures', 'record-stdin.mjs');

/** A bridge whose child's stdin is copied to a log file; resolves with the bridge, its URL and the log. */
async function recordedBridge(): Promise<{ bridge: BridgeProcess; url: string; log: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'bridge-request-bytes-'));
  const log = join(dir, 'stdin.log');
  // --sse-after far away: every answer is JSON, however loaded the machine is.
  const { bridge, url } = await BridgeProcess.start(
    ['--sse-after', '600000'],
    [process.execPath, RECORD_STDIN, log, ...BRIDGE_CHILD],
  );
  return { bridge, url, log, dir };
}

/** The line of the child's stdin that holds `needle`, once it is there (the copy is written asynchronously). */
async function lineWith(log: string, needle: string): Promise<string> {
  // A bound only against hanging: the request was answered, so its line was written already.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const text = await readFile(log, 'utf8').catch(() => '');
    const lines = text.split('\n');
    // A line is complete once a newline follows it: the last element is the unfinished rest.
    const found = lines.slice(0, -1).filter((line) => line.includes(needle));
    if (found.length > 0) {
      assert.equal(found.length, 1, `one line holds ${needle}: ${text}`);
      return found[0]!;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no line of the child's stdin holds ${needle}`);
}

describe('mcpwire bridge --http: the client request toward the child', { concurrency: 2 }, () => {
  test('reaches the child byte for byte: key order, 1.0 and 1e2, escaped unicode, extra members', async () => {
    const { bridge, url, log, dir } = await recordedBridge();
    await using _bridge = bridge;
    try {
      const sessionId = await openSession(url);
      const body =
        '{ "id": 21 , "method":"tools/call","jsonrpc":"2.0",' +
        '"params":{"x-extra":{"n":1.0,"m":1e2,"s":"\\u00e9\\ud83d\\ude00"},' +
        '"arguments":{"text":"\\u0041\\/b"},"name":"echo"}}';
      const answer = await post(url, body, sessionId);
      assert.equal(answer.status, 200, answer.text);
      assert.equal(resultText(answer), 'A/b');
      assert.equal(await lineWith(log, 'x-extra'), body);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('with raw newlines between its tokens reaches the child as one line, the same message', async () => {
    const { bridge, url, log, dir } = await recordedBridge();
    await using _bridge = bridge;
    try {
      const sessionId = await openSession(url);
      const body =
        '{\n  "jsonrpc": "2.0",\r\n  "id": 22,\n  "method": "tools/call",\n' +
        '  "params": {"name": "echo", "arguments": {"text": "two\\nlines"}}\n}\n';
      const answer = await post(url, body, sessionId);
      assert.equal(answer.status, 200, answer.text);
      assert.equal(resultText(answer), 'two\nlines');
      const line = await lineWith(log, 'two\\nlines');
      assert.doesNotMatch(line, /\r/);
      assert.deepEqual(JSON.parse(line), JSON.parse(body));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
