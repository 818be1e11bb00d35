// Type test (checked by `npm run typecheck`): `Client.request` takes a core method's params and
// gives its result as the method's row describes them, so a call with wrong params, or a result used
// as another method's, fails to compile. The runtime part calls the typed request on a real server.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ListToolsResult } from '../protocol/types/index.ts';
import { Server } from '../server/server.ts';
import { createMemoryPair } from '../transports/memory.ts';
import { Client } from './client.ts';
import type { ServerRequestMethod } from './server-requests.ts';

/** Never called: what the compiler must refuse, each line marked with why. */
async function misuses(client: Client): Promise<void> {
  // @ts-expect-error -- tools/call needs `name` (a string); `nam` is a typo the row's params type catches.
  await client.request('tools/call', { nam: 'x' });
  // @ts-expect-error -- resources/read's `uri` is a string.
  await client.request('resources/read', { uri: 42 });
  // @ts-expect-error -- a tools/call result is a CallToolResult: it has no `tools` list.
  const listed: ListToolsResult = await client.request('tools/call', { name: 'x' });
  void listed;
  // @ts-expect-error -- roots/list is a server->client request: a client does not send it.
  await client.request('roots/list', {});
  // @ts-expect-error -- tools/call's params are not optional (its row requires `name`).
  await client.request('tools/call');
}

// The server->client requests a client answers come from the rows (sender: server, kind: request).
const answered: ServerRequestMethod[] = ['sampling/createMessage', 'elicitation/create', 'roots/list'];
// @ts-expect-error -- tools/call is a client->server request: not one a client answers.
const notAnswered: ServerRequestMethod = 'tools/call';

test('request() on a core method is typed from its row and reaches the server', async () => {
  void misuses;
  void notAnswered;
  assert.equal(answered.length, 3);
  const server = new Server({ name: 'srv', version: '1' });
  server.tool({ name: 'shout', inputSchema: { type: 'object' } }, (args) => String(args.text).toUpperCase());
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client({ name: 'c', version: '1' }, { era: 'handshake' });
  await client.connect(clientEnd);
  try {
    const result = await client.request('tools/call', { name: 'shout', arguments: { text: 'hi' } });
    // `content` is a ContentBlock[] here, not `unknown`: no cast before indexing it.
    const [first] = result.content;
    assert.deepEqual(first, { type: 'text', text: 'HI' });
    const { tools } = await client.request('tools/list');
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['shout'],
    );
  } finally {
    await client.close();
  }
});
