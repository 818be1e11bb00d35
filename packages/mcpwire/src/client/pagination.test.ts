import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Server } from '../server/server.ts';
import { createMemoryPair } from '../transports/memory.ts';
import { Client } from './client.ts';
import { InvalidResultError, PaginationLimitError } from './errors.ts';
import { collectPages, readPage } from './pagination.ts';

test('collectPages follows nextCursor, treating the empty string as a cursor (PAGE-6)', async () => {
  const pages: Record<string, { items: number[]; nextCursor: string | undefined }> = {
    start: { items: [1, 2], nextCursor: '' },
    '': { items: [3], nextCursor: 'last' },
    last: { items: [4], nextCursor: undefined },
  };
  const asked: Array<string | undefined> = [];
  const items = await collectPages(
    (cursor) => {
      asked.push(cursor);
      return Promise.resolve(pages[cursor ?? 'start']!);
    },
    { method: 'tools/list' },
  );
  assert.deepEqual(items, [1, 2, 3, 4]);
  assert.deepEqual(asked, [undefined, '', 'last']);
});

test('collectPages stops with PaginationLimitError at the page cap', async () => {
  let fetches = 0;
  const endless = () => {
    fetches++;
    return Promise.resolve({ items: [fetches], nextCursor: 'again' });
  };
  await assert.rejects(collectPages(endless, { method: 'prompts/list', maxPages: 3 }), (error: unknown) => {
    assert.ok(error instanceof PaginationLimitError);
    assert.equal(error.code, 'PAGINATION_LIMIT');
    assert.equal(error.maxPages, 3);
    assert.match(error.message, /prompts\/list/);
    return true;
  });
  assert.equal(fetches, 3);
});

test('readPage checks the list array and the cursor type, reading null as the last page', () => {
  const tools = { method: 'tools/list', key: 'tools' };
  assert.deepEqual(readPage({ tools: [1], nextCursor: 'n' }, tools), {
    items: [1],
    nextCursor: 'n',
  });
  assert.deepEqual(readPage({ tools: [], nextCursor: null }, tools), {
    items: [],
    nextCursor: undefined,
  });
  assert.throws(() => readPage({ nextCursor: 'n' }, tools), InvalidResultError);
  assert.throws(() => readPage({ tools: [], nextCursor: 7 }, tools), {
    code: 'INVALID_RESULT',
  });
});

test('listAll helpers collect every page from a paginating server', async () => {
  const server = new Server({ name: 'paged', version: '1' }, { pageSize: 2 });
  for (const name of ['a', 'b', 'c', 'd', 'e']) {
    server.tool({ name }, () => name);
    server.prompt({ name }, () => name);
    server.resource({ uri: `file:///${name}`, name }, () => name);
    server.resource({ uriTemplate: `file:///${name}/{id}`, name: `${name}-template` }, () => name);
  }
  const requests: string[] = [];
  server.use((request, next) => {
    requests.push(`${request.method} ${String(request.params.cursor !== undefined)}`);
    return next();
  });
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client({ name: 'c', version: '1' }, { era: 'handshake' });
  await client.connect(clientEnd);

  assert.deepEqual(
    (await client.listAllTools()).map((tool) => tool.name),
    ['a', 'b', 'c', 'd', 'e'],
  );
  assert.deepEqual(
    (await client.listAllPrompts()).map((prompt) => prompt.name),
    ['a', 'b', 'c', 'd', 'e'],
  );
  assert.deepEqual(
    (await client.listAllResources()).map((resource) => resource.uri),
    ['a', 'b', 'c', 'd', 'e'].map((name) => `file:///${name}`),
  );
  assert.equal((await client.listAllResourceTemplates()).length, 5);
  assert.deepEqual(
    requests.filter((line) => line.startsWith('tools/list')),
    ['tools/list false', 'tools/list true', 'tools/list true'],
  );
  await assert.rejects(client.listAllTools({ maxPages: 2 }), PaginationLimitError);
  await client.close();
});
