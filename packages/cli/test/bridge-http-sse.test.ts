// `mcpwire bridge --http 0 -- mcpwire serve everything --era handshake`, a 2025-11-25 session: the
// relay picks SSE per POST. A call the child answers before saying anything else is answered with
// JSON; a call on which the child streams first (progress), or does not answer within --sse-after
// (the polling fixture test_reconnection), gets a resumable SSE stream that opens with a priming
// event (an id and a retry, HTTP-9); --sse-after 0 always streams; a JSON-only client gets JSON.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BridgeProcess } from './support/bridge-process.ts';
import {
  ACCEPT_BOTH as BOTH,
  openToolCaller,
  primedMessages,
  type Answer,
} from './support/bridge-sse-answers.ts';
import { MCPWIRE_ARGV } from '../../../test/support/cli-child.ts';

const HANDSHAKE_EVERYTHING = [...MCPWIRE_ARGV, 'serve', 'everything', '--era', 'handshake'];
/** Long enough that no call of these tests reaches it: the choice then depends on the child only. */
const NEVER = '600000';

/** Starts the bridge with `options`; returns a caller of `tools/call` in one 2025-11-25 session. */
async function startBridge(options: readonly string[]) {
  const { bridge, url } = await BridgeProcess.start(options, HANDSHAKE_EVERYTHING);
  return { bridge, call: await openToolCaller(url) };
}

describe('bridge --http: the session relay chooses SSE per POST', { concurrency: 1 }, () => {
  test('a call the child answers first gets JSON, even from a client that accepts SSE', async () => {
    const { bridge, call } = await startBridge(['--sse-after', NEVER]);
    await using _bridge = bridge;
    const response = await call(7, 'test_simple_text', BOTH);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const answer = (await response.json()) as Answer;
    assert.equal(answer.result?.content[0]?.text, 'This is a simple text response for testing.');
  });

  test('a call on which the child sends progress first gets a primed stream', async () => {
    const { bridge, call } = await startBridge(['--sse-after', NEVER]);
    await using _bridge = bridge;
    const messages = await primedMessages(
      await call(8, 'test_tool_with_progress', BOTH, { progressToken: 't' }),
    );
    assert.equal(messages[0]?.method, 'notifications/progress');
    assert.equal(messages.at(-1)?.id, 8);
  });

  test('a call the child has not answered within --sse-after (default) gets a primed stream', async () => {
    const { bridge, call } = await startBridge([]);
    await using _bridge = bridge;
    // test_reconnection pauses 100 ms and says nothing before its result (over stdio it cannot poll).
    const messages = await primedMessages(await call(9, 'test_reconnection', BOTH));
    assert.deepEqual(
      messages.map((message) => message.id),
      [9],
    );
    assert.match(messages[0]!.result!.content[0]!.text, /Reconnection test completed successfully/);
  });

  test('--sse-after 0 streams every answer; a client that accepts JSON only still gets JSON', async () => {
    const { bridge, call } = await startBridge(['--sse-after', '0']);
    await using _bridge = bridge;
    const messages = await primedMessages(await call(10, 'test_simple_text', BOTH));
    assert.equal(messages.at(-1)?.result?.content[0]?.text, 'This is a simple text response for testing.');
    const json = await call(11, 'test_simple_text', 'application/json');
    assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(((await json.json()) as Answer).id, 11);
  });
});
