// `--sse-after` in the bridge's other HTTP fronts (issue 25): `bridge --http 0 <url>` in front of
// `mcpwire serve everything --http`, and `bridge --http 0 --config <file>` in front of `serve
// everything` on stdio. Neither upstream can tell a handshake-era HTTP client to poll through the
// bridge, so a call not answered within --sse-after (default 20 ms; test_reconnection pauses 100 ms)
// gets a primed, resumable stream; --sse-after 0 streams every answer to a client that accepts SSE.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { testChildEnv } from '../../../test/support/node-options.ts';
import { BridgeProcess } from './support/bridge-process.ts';
import { ACCEPT_BOTH, openToolCaller, primedMessages } from './support/bridge-sse-answers.ts';
import { MCPWIRE } from './support/cli-process.ts';
import { startOurHttpServer, type HttpServer } from './support/http-servers.ts';

const LONG = { timeout: 120_000 };
const SIMPLE_TEXT = 'This is a simple text response for testing.';

/** Starts `mcpwire bridge <args>`; resolves with its URL once its banner names it. */
async function startBridge(args: readonly string[]): Promise<{ bridge: BridgeProcess; url: string }> {
  const bridge = new BridgeProcess(args);
  try {
    const [, url] = await bridge.waitForStderr(/(http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    return { bridge, url: url! };
  } catch (error) {
    await bridge[Symbol.asyncDispose]();
    throw error;
  }
}

/** The two assertions each front must pass, with `prefix` before the everything server's tool names. */
function sseAfterTests(
  start: (options: readonly string[]) => Promise<{ bridge: BridgeProcess; url: string }>,
  prefix: string,
) {
  test('a call not answered within --sse-after (default) gets a primed stream', LONG, async () => {
    const { bridge, url } = await start([]);
    await using _bridge = bridge;
    const call = await openToolCaller(url);
    const messages = await primedMessages(await call(9, `${prefix}test_reconnection`, ACCEPT_BOTH));
    assert.deepEqual(
      messages.map((message) => message.id),
      [9],
    );
    assert.match(messages[0]!.result!.content[0]!.text, /Reconnection test completed successfully/);
  });

  test('--sse-after 0 streams a quick answer; a JSON-only client still gets JSON', LONG, async () => {
    const { bridge, url } = await start(['--sse-after', '0']);
    await using _bridge = bridge;
    const call = await openToolCaller(url);
    const messages = await primedMessages(await call(10, `${prefix}test_simple_text`, ACCEPT_BOTH));
    assert.equal(messages.at(-1)?.result?.content[0]?.text, SIMPLE_TEXT);
    const json = await call(11, `${prefix}test_simple_text`, 'application/json');
    assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(((await json.json()) as { id?: number }).id, 11);
  });
}

describe('bridge --http <port> <url>: --sse-after', { concurrency: 1 }, () => {
  let remote: HttpServer;
  before(async () => {
    remote = await startOurHttpServer(['everything', '--era', 'handshake']);
  });
  after(async () => {
    await remote?.[Symbol.asyncDispose]();
  });
  sseAfterTests((options) => startBridge(['--http', '0', ...options, remote.url]), '');
});

describe('bridge --http <port> --config <file>: --sse-after', { concurrency: 1 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'mcpwire-bridge-sse-after-'));
  const config = join(work, 'mcp.json');
  const entry = {
    command: MCPWIRE[0],
    args: [...MCPWIRE.slice(1), 'serve', 'everything'],
    env: testChildEnv(),
  };
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: entry } }));
  after(() => rmSync(work, { recursive: true, force: true }));
  sseAfterTests((options) => startBridge(['--http', '0', ...options, '--config', config]), 'everything__');
});
