// What the `bridge --http` SSE tests share: a `tools/call` POSTed in a 2025-11-25 session with the
// Accept header a test chooses, and an SSE answer read as its priming event and the messages after it.

import assert from 'node:assert/strict';
import { RawHttpSession } from '../../../../test/support/raw-mcp-http.ts';

/** Both kinds of answer accepted, as a Streamable HTTP client sends it. */
export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** A message of an answer, as loosely as the tests read it. */
export type Answer = { id?: number; method?: string; result?: { content: Array<{ text: string }> } };

/** Opens a 2025-11-25 session at `url`; returns a caller of `tools/call` in it (the raw Response). */
export async function openToolCaller(url: string) {
  const session = await RawHttpSession.open(url, { protocolVersion: '2025-11-25' });
  return (id: number, name: string, accept: string, meta?: object): Promise<Response> =>
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
}

/** An SSE answer's events: asserts the first is the priming event, returns the messages after it. */
export async function primedMessages(response: Response): Promise<Answer[]> {
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
