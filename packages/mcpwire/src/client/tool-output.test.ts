import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../jsonrpc/message.ts';
import { type InboundRequest, Session } from '../protocol/session.ts';
import type { Tool, ToolSchema } from '../protocol/types/index.ts';
import { createMemoryPair } from '../transports/memory.ts';
import { createAjvValidator } from '../validation/ajv-validator.ts';
import { Client } from './client.ts';
import { OutputValidationError } from './errors.ts';
import { ToolOutputSchemas } from './tool-output.ts';

const sumSchema: ToolSchema = { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] };

/** A hand-driven server offering `tools`, answering tools/call with `results[name]`, counting tools/list. */
async function connectToolServer(tools: Tool[], results: Record<string, JsonObject>) {
  const [clientEnd, serverEnd] = createMemoryPair();
  const capabilities = { tools: { listChanged: true } };
  const counts = { list: 0 };
  const session: Session = new Session({
    role: 'server',
    channel: serverEnd,
    handleRequest: (request: InboundRequest) => {
      switch (request.method) {
        case 'initialize':
          session.protocolVersion = request.params.protocolVersion as string;
          session.ownCapabilities = capabilities;
          session.setState('initializing');
          return {
            protocolVersion: session.protocolVersion,
            capabilities,
            serverInfo: { name: 'raw', version: '0' },
          };
        case 'tools/list':
          counts.list++;
          return { tools };
        default:
          return results[request.params.name as string] ?? {};
      }
    },
    handleNotification: (method) => {
      if (method === 'notifications/initialized') session.setState('operating');
    },
  });
  session.start();
  const client = new Client({ name: 'c', version: '1' }, { era: 'handshake' });
  await client.connect(clientEnd);
  await client.ping(); // the server has now seen notifications/initialized
  return { client, session, counts, tools };
}

test('callTool rejects structuredContent that does not match the outputSchema (TOOL-3)', async () => {
  const bad = { content: [{ type: 'text', text: '{"sum":"three"}' }], structuredContent: { sum: 'three' } };
  const { client } = await connectToolServer(
    [{ name: 'add', inputSchema: { type: 'object' }, outputSchema: sumSchema }],
    { add: bad },
  );
  await assert.rejects(client.callTool({ name: 'add' }), (error: unknown) => {
    assert.ok(error instanceof OutputValidationError);
    assert.equal(error.code, 'OUTPUT_VALIDATION');
    assert.equal(error.toolName, 'add');
    assert.match(error.errors.join('\n'), /\/sum/);
    assert.deepEqual(error.result, bad);
    return true;
  });
  await client.close();
});

test('matching output, isError results and tools without an outputSchema pass', async () => {
  const tools: Tool[] = [
    { name: 'add', inputSchema: { type: 'object' }, outputSchema: sumSchema },
    { name: 'fail', inputSchema: { type: 'object' }, outputSchema: sumSchema },
    { name: 'plain', inputSchema: { type: 'object' } },
  ];
  const results = {
    add: { content: [], structuredContent: { sum: 3 } },
    fail: { content: [{ type: 'text', text: 'boom' }], isError: true },
    plain: { content: [], structuredContent: { anything: 'goes' } },
  };
  const { client, counts } = await connectToolServer(tools, results);
  assert.deepEqual((await client.callTool({ name: 'add' })).structuredContent, { sum: 3 });
  assert.equal((await client.callTool({ name: 'fail' })).isError, true);
  assert.deepEqual((await client.callTool({ name: 'plain' })).structuredContent, { anything: 'goes' });
  assert.equal(counts.list, 1, 'the list is fetched once, for the first unknown tool');
  await client.close();
});

test('a result without structuredContent fails when the tool declares an outputSchema', async () => {
  const { client } = await connectToolServer(
    [{ name: 'add', inputSchema: { type: 'object' }, outputSchema: sumSchema }],
    { add: { content: [] } },
  );
  await assert.rejects(client.callTool({ name: 'add' }), OutputValidationError);
  await client.close();
});

test('concurrent calls of unknown tools share one listing; a tool missing from the whole list is not listed again', async () => {
  const { client, counts } = await connectToolServer([], { ghost: { content: [] } });
  await Promise.all([client.callTool({ name: 'ghost' }), client.callTool({ name: 'ghost' })]);
  await client.callTool({ name: 'ghost' });
  assert.equal(counts.list, 1);
  await client.close();
});

test('notifications/tools/list_changed drops the cached schemas; the next call lists again', async () => {
  const tools: Tool[] = [{ name: 'add', inputSchema: { type: 'object' } }];
  const { client, session, counts } = await connectToolServer(tools, {
    add: { content: [], structuredContent: { sum: 'x' } },
  });
  await client.callTool({ name: 'add' });
  tools[0] = { name: 'add', inputSchema: { type: 'object' }, outputSchema: sumSchema };
  const changed = new Promise<void>((resolve) => client.on('toolsListChanged', () => resolve()));
  await session.notify('notifications/tools/list_changed');
  await changed;
  await assert.rejects(client.callTool({ name: 'add' }), OutputValidationError);
  assert.equal(counts.list, 2);
  await client.close();
});

test('ToolOutputSchemas ignores pages of a listing started before an invalidate', async () => {
  const schemas = new ToolOutputSchemas(createAjvValidator(), { onListingFailure: () => {} });
  const generation = schemas.generation;
  schemas.invalidate();
  schemas.remember([{ name: 'add', inputSchema: { type: 'object' }, outputSchema: sumSchema }], {
    generation,
    isWholeList: true,
  });
  assert.equal(schemas.knows('add'), false);
  schemas.remember([{ name: 'add', inputSchema: { type: 'object' }, outputSchema: sumSchema }], {
    generation: schemas.generation,
    isWholeList: false,
  });
  assert.equal(schemas.knows('add'), true);
  assert.equal(schemas.knows('other'), false);
  await assert.rejects(
    schemas.check('add', { content: [], structuredContent: { sum: 'x' } }),
    OutputValidationError,
  );
});

test('ensureKnown shares one listing and reports a failed one instead of rejecting', async () => {
  const failures: Error[] = [];
  const schemas = new ToolOutputSchemas(createAjvValidator(), {
    onListingFailure: (error) => failures.push(error),
  });
  let listings = 0;
  const failingList = () => {
    listings++;
    return Promise.reject(new Error('server down'));
  };
  await Promise.all([schemas.ensureKnown('add', failingList), schemas.ensureKnown('add', failingList)]);
  assert.equal(listings, 1);
  assert.equal(failures.length, 1);
  assert.equal((failures[0]?.cause as Error).message, 'server down');
  assert.equal(schemas.knows('add'), false);
});
