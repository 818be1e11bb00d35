// `mcpwire bridge --http 0 -- mcpwire serve everything --era handshake`, a 2025-11-25 session: the
// relay answers a POST of requests on a resumable SSE stream when the client accepts one (a priming
// event with an id and a retry first, HTTP-9), as a server does that may have more than the response
// to send; a client that accepts JSON only gets JSON.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BridgeProcess } from './support/bridge-process.ts';
import { MCPWIRE_ARGV } from '../../../test/support/cli-child.ts';
import { RawHttpSession } from '../../../test/support/raw-mcp-http.ts';

const HANDSHAKE_EVERYTHING = [...MCPWIRE_ARGV, 'serve', 'everything', '--era', 'handshake'];

describe('bridge --http: the session relay answers on SSE', { concurrency: 1 }, () => {
  test('a POST accepting SSE gets a stream with a priming event; JSON only gets JSON', async () => {
    const { bridge, url } = await BridgeProcess.start([], HANDSHAKE_EVERYTHING);
    await using _bridge = bridge;
    const session = await RawHttpSession.open(url, { protocolVersion: '2025-11-25' });
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'test_simple_text', arguments: {} },
    };
    const headers = {
      'Content-Type': 'application/json',
      'Mcp-Session-Id': session.sessionId,
      'MCP-Protocol-Version': '2025-11-25',
    };
    const streamed = await fetch(url, {
      method: 'POST',
      headers: { ...headers, Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(call),
    });
    assert.equal(streamed.status, 200);
    assert.match(streamed.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = (await streamed.text()).split('\n\n').filter((event) => event.trim() !== '');
    // The priming event: an id to resume from, no data, and a retry.
    assert.match(events[0]!, /^id: \S+$/m, events[0]);
    assert.match(events[0]!, /^retry: \d+$/m, events[0]);
    assert.doesNotMatch(events[0]!, /^data: ?\S/m, events[0]);
    const response = events
      .flatMap((event) =>
        event.split('\n').filter((line) => line.startsWith('data:') && line.slice(5).trim() !== ''),
      )
      .map(
        (line) => JSON.parse(line.slice(5)) as { id?: number; result?: { content: Array<{ text: string }> } },
      )
      .find((message) => message.id === 7);
    assert.equal(response?.result?.content[0]?.text, 'This is a simple text response for testing.');

    const json = await fetch(url, {
      method: 'POST',
      headers: { ...headers, Accept: 'application/json' },
      body: JSON.stringify({ ...call, id: 8 }),
    });
    assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(((await json.json()) as { id: number }).id, 8);
  });
});
