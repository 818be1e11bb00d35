// `mcpwire bridge --http 0 -- mcpwire serve everything --era handshake`, a 2025-11-25 session: the
// relay picks SSE per POST. A call the child answers before saying anything else is answered with
// JSON; a call on which the child streams first (progress), or does not answer within --sse-after
// (the polling fixture test_reconnection), gets a resumable SSE stream that opens with a priming
// event (an id and a retry, HTTP-9); --sse-after 0 always streams; a JSON-only client gets JSON.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BridgeProcess } from './support/bridge-process.ts';
import { MCPWIRE_ARGV } from '../../../test/support/cli-child.ts';
import { RawHttpSession } from '../../../test/support/raw-mcp-http.ts';

const HANDSHAKE_EVERYTHING = [...MCPWIRE_ARGV, 'serve', 'everything', '--era', 'handshake'];
const BOTH = 'application/json, text/event-stream';
/** Long enough that no call of these tests reaches it: the choice then depends on the child only. */
const NEVER = '600000';

type Answer = { id?: number; method?: string; result?: { content: Array<{ text: string }> } };

/** Starts the bridge with `options`; returns a caller of `tools/call` in one 2025-11-25 session. */
async function startBridge(options: readonly string[]) {
  const { bridge, url } = await BridgeProcess.start(options, HANDSHAKE_EVERYTHING);
  const session = await RawHttpSession.open(url, { protocolVersion: '2025-11-25' });
  const call = (id: number, name: string, accept: string, meta?: object) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Mcp-Session-Id': session.sessionId,
        'MCP-Protocol-Version': '2025-11-25',
        Accept: accept,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name, arguments: {}, ...(meta === undefined ? {} : { _meta: meta }) },
      }),
    });
  return { bridge, call };
}

/** An SSE answer's events: asserts the first is the priming event, returns the messages after it. */
async function primedMessages(response: Response): Promise<Answer[]> {
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const events = (await response.text()).split('\n\n').filter((event) => event.trim() !== '');
  // The priming event: an id to resume from, no data, and a retry.
  assert.match(events[0]!, /^id: \S+$/m, events[0]);
  assert.match(events[0]!, /^retry: \d+$/m, events[0]);
  assert.doesNotMatch(events[0]!, /^data: ?\S/m, events[0]);
  return events
    .slice(1)
    .flatMap((event) => event.split('\n').filter((line) => line.startsWith('data:')))
    .map((line) => JSON.parse(line.slice(5)) as Answer);
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
