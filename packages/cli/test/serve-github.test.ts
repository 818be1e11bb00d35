// `mcpwire serve github` as a real child process: the tracker's tools, the resource registered when an
// issue is created (list_changed), progress from sync_repository, and a cancelled search_code.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RawServerProcess } from '../../../test/support/raw-server-process.ts';

const SERVE = ['serve', 'github'];

describe('mcpwire serve github', { concurrency: 4 }, () => {
  test('lists the scenario tools, the issue resources and the summarize_issue prompt', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize();
    const { tools } = (await server.request('tools/list')).result;
    assert.deepEqual(
      tools.map((tool: { name: string }) => tool.name),
      [
        'list_issues',
        'get_issue',
        'get_pull_request',
        'create_issue',
        'comment',
        'sync_repository',
        'search_code',
      ],
    );
    const { resources } = (await server.request('resources/list')).result;
    assert.deepEqual(
      resources.map((resource: { uri: string }) => resource.uri),
      ['github://issues/1', 'github://issues/2', 'github://issues/3'],
    );
    const prompt = (
      await server.request('prompts/get', { name: 'summarize_issue', arguments: { number: '1' } })
    ).result;
    assert.equal(prompt.messages[0].content.resource.uri, 'github://issues/1');
    const completion = await server.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'summarize_issue' },
      argument: { name: 'number', value: '' },
    });
    assert.deepEqual(completion.result.completion.values, ['1', '2', '3']);
  });

  test('create_issue registers github://issues/<n>: list_changed, then the new resource reads', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize();
    const created = await server.request('tools/call', {
      name: 'create_issue',
      arguments: { title: 'Broken build' },
    });
    assert.equal(created.result.content[0].text, 'Created issue #5: Broken build');
    await server.waitFor((message) => message.method === 'notifications/resources/list_changed');
    const read = (await server.request('resources/read', { uri: 'github://issues/5' })).result.contents[0];
    assert.equal(read.mimeType, 'text/markdown');
    assert.match(read.text, /^# #5 Broken build/);
    const pull = await server.request('tools/call', { name: 'get_pull_request', arguments: { number: 4 } });
    assert.match(pull.result.content[0].text, /^#4 Fix session cookie/);
    const missing = await server.request('tools/call', { name: 'get_issue', arguments: { number: 99 } });
    assert.equal(missing.result.isError, true);
  });

  test('comment on a subscribed issue sends resources/updated', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize();
    await server.request('resources/subscribe', { uri: 'github://issues/2' });
    const commented = await server.request('tools/call', {
      name: 'comment',
      arguments: { number: 2, body: 'Agreed.' },
    });
    assert.equal(commented.result.content[0].text, 'Commented on issue #2.');
    const updated = await server.waitFor((message) => message.method === 'notifications/resources/updated');
    assert.deepEqual(updated.params, { uri: 'github://issues/2' });
  });

  test('sync_repository reports five increasing progress steps; search_code stops when cancelled', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize();
    await server.request('tools/call', {
      name: 'sync_repository',
      arguments: {},
      _meta: { progressToken: 'sync' },
    });
    const steps = server.received
      .filter((message) => message.method === 'notifications/progress')
      .map((message) => message.params.progress);
    assert.deepEqual(steps, [1, 2, 3, 4, 5]);
    server.send({
      jsonrpc: '2.0',
      id: 'search',
      method: 'tools/call',
      params: { name: 'search_code', arguments: { query: 'session' }, _meta: { progressToken: 'search' } },
    });
    await server.waitFor(
      (message) => message.method === 'notifications/progress' && message.params.progressToken === 'search',
    );
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'search' } });
    await server.request('ping');
    assert.equal(
      server.received.find((message) => message.id === 'search'),
      undefined,
    );
  });
});
