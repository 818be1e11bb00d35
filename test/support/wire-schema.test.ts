import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import type { Frame } from 'mcpwire';
import type { Message } from 'mcpwire';
import type { Channel, ChannelReceiver } from 'mcpwire';
import { tapChannel } from 'mcpwire';
import { createWireValidator, validateAgainstDefinition, type Side } from './wire-schema.ts';

const HANDSHAKE = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const STATELESS = '2026-07-28';

/** The per-request envelope 2026-07-28 requires in every request's `_meta`. */
const statelessMeta = {
  'io.modelcontextprotocol/protocolVersion': STATELESS,
  'io.modelcontextprotocol/clientCapabilities': {},
};

function validator(revision: string, side: Side = 'client') {
  return createWireValidator({ revision, side });
}

test('a tools/call request and its result validate in every revision', () => {
  for (const revision of HANDSHAKE) {
    const v = validator(revision);
    v.check(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
      'sent',
    );
    v.check({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } }, 'received');
    assert.deepEqual(v.failures, [], revision);
  }
  const v = validator(STATELESS);
  v.check(
    { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { _meta: statelessMeta, name: 'echo' } },
    'sent',
  );
  v.check({ jsonrpc: '2.0', id: 'a', result: { resultType: 'complete', content: [] } }, 'received');
  assert.deepEqual(v.failures, []);
});

test('a CallToolResult without content fails in every revision, naming method, definition and error', () => {
  for (const revision of [...HANDSHAKE, STATELESS]) {
    const v = validator(revision, 'server');
    const params = revision === STATELESS ? { _meta: statelessMeta, name: 'echo' } : { name: 'echo' };
    v.check({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }, 'received');
    v.check({ jsonrpc: '2.0', id: 7, result: { isError: false, resultType: 'complete' } }, 'sent');
    assert.equal(v.failures.length, 1, revision);
    assert.match(
      v.failures[0] ?? '',
      /^sent result of "tools\/call" \(id 7\) is not a valid CallToolResult in .*required property 'content'/,
    );
  }
});

test('a 2026-07-28 request without the _meta envelope fails', () => {
  const v = validator(STATELESS);
  v.check({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, 'sent');
  assert.equal(v.failures.length, 1);
  assert.match(v.failures[0] ?? '', /ListToolsRequest.*_meta/);
});

test('an initialize exchange validates for 2024-11-05, and a bad one is caught', () => {
  const v = validator('2024-11-05');
  const capabilities = { roots: { listChanged: true }, sampling: {} };
  v.check(
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities, clientInfo: { name: 'c', version: '1' } },
    },
    'sent',
  );
  v.check(
    {
      jsonrpc: '2.0',
      id: 0,
      result: {
        protocolVersion: '2024-11-05',
        capabilities: { tools: {} },
        serverInfo: { name: 's', version: '1' },
      },
    },
    'received',
  );
  v.check({ jsonrpc: '2.0', method: 'notifications/initialized' }, 'sent');
  assert.deepEqual(v.failures, []);
  v.check(
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {} },
    },
    'sent',
  );
  assert.match(v.failures[0] ?? '', /request "initialize" is not a valid InitializeRequest .*clientInfo/);
});

test('an audio content block fails for 2024-11-05 and passes for 2025-03-26', () => {
  const result = { content: [{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }] };
  assert.equal(validateAgainstDefinition('2024-11-05', 'CallToolResult', result).valid, false);
  assert.deepEqual(validateAgainstDefinition('2025-03-26', 'CallToolResult', result), {
    valid: true,
    errors: [],
  });
});

test('formats are checked: image data must be base64', () => {
  const image = (data: string) => ({ content: [{ type: 'image', data, mimeType: 'image/png' }] });
  assert.equal(validateAgainstDefinition('2025-11-25', 'CallToolResult', image('iVBORw0KGgo=')).valid, true);
  assert.equal(validateAgainstDefinition('2025-11-25', 'CallToolResult', image('not base64!')).valid, false);
});

test('a batch is recognised only for 2025-03-26, and its items are checked one by one', () => {
  const batch = [
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { jsonrpc: '2.0', id: 2, method: 'prompts/list' },
  ];
  for (const revision of [...HANDSHAKE, STATELESS]) {
    const v = validator(revision);
    v.check(batch, 'sent');
    if (revision === '2025-03-26') assert.deepEqual(v.failures, []);
    else assert.match(v.failures[0] ?? '', new RegExp(`batch, which ${revision} does not allow`));
  }
  const v = validator('2025-03-26');
  v.check(batch, 'sent');
  v.check(
    [
      { jsonrpc: '2.0', id: 1, result: { tools: [] } },
      { jsonrpc: '2.0', id: 2, result: {} },
    ],
    'received',
  );
  assert.equal(v.failures.length, 1);
  assert.match(v.failures[0] ?? '', /result of "prompts\/list" \(id 2\) is not a valid ListPromptsResult/);
  v.check([{ jsonrpc: '2.0', id: 9, method: 'initialize', params: {} }], 'sent');
  assert.ok(v.failures.some((failure) => failure.includes('initialize, which must not be batched')));
});

test('direction matters: each side may send only its own methods', () => {
  const client = validator('2025-06-18', 'client');
  client.check(
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'elicitation/create',
      params: { message: 'name?', requestedSchema: { type: 'object', properties: {} } },
    },
    'received',
  );
  client.check({ jsonrpc: '2.0', id: 1, result: { action: 'decline' } }, 'sent');
  assert.deepEqual(client.failures, []);
  client.check(
    { jsonrpc: '2.0', id: 2, method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } },
    'sent',
  );
  client.check({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, 'sent');
  assert.equal(client.failures.length, 2);
  assert.match(
    client.failures[0] ?? '',
    /"sampling\/createMessage", which a client may not send in 2025-06-18 \(only the server sends it\)/,
  );
  assert.match(client.failures[1] ?? '', /"notifications\/tools\/list_changed", which a client may not send/);
});

test('unknown methods fail unless allowed, and results need a matching request', () => {
  const strict = validator('2025-11-25');
  strict.check({ jsonrpc: '2.0', id: 1, method: 'acme/frobnicate' }, 'sent');
  strict.check({ jsonrpc: '2.0', id: 99, result: {} }, 'received');
  assert.match(
    strict.failures[0] ?? '',
    /"acme\/frobnicate", which a client may not send in 2025-11-25 \(no such method\)/,
  );
  assert.match(strict.failures[1] ?? '', /result for id 99, which matches no request/);
  const lenient = createWireValidator({ revision: '2025-11-25', side: 'client', allowUnknownMethods: true });
  lenient.check({ jsonrpc: '2.0', id: 1, method: 'acme/frobnicate' }, 'sent');
  lenient.check({ jsonrpc: '2.0', id: 1, result: { anything: true } }, 'received');
  assert.deepEqual(lenient.failures, []);
});

test('error responses: id-less only from 2025-11-25, code-specific shapes checked', () => {
  const idless = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } };
  for (const revision of ['2025-06-18', '2025-11-25']) {
    const v = validator(revision, 'server');
    v.check(idless, 'sent');
    assert.equal(v.failures.length, revision === '2025-06-18' ? 1 : 0, revision);
  }
  const v = validator('2025-11-25', 'server');
  v.check({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'pay' } }, 'received');
  v.check({ jsonrpc: '2.0', id: 3, error: { code: -32042, message: 'Authorize first' } }, 'sent');
  assert.match(
    v.failures[0] ?? '',
    /error response to "tools\/call" is not a valid URLElicitationRequiredError/,
  );
});

test('task-augmented requests may answer with CreateTaskResult (2025-11-25)', () => {
  const v = validator('2025-11-25');
  v.check(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', task: { ttl: 60000 } } },
    'sent',
  );
  const task = {
    taskId: 't1',
    status: 'working',
    createdAt: '2025-11-25T00:00:00Z',
    lastUpdatedAt: '2025-11-25T00:00:00Z',
    ttl: 60000,
  };
  v.check({ jsonrpc: '2.0', id: 1, result: { task } }, 'received');
  v.check({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId: 't1' } }, 'sent');
  v.check({ jsonrpc: '2.0', id: 2, result: { ...task, status: 'completed' } }, 'received');
  assert.deepEqual(v.failures, []);
});

test('2026-07-28: input_required only where the schema lists InputRequiredResult', () => {
  const v = validator(STATELESS);
  const inputRequired = { resultType: 'input_required', requestState: 'opaque' };
  v.check(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: statelessMeta, name: 'book' } },
    'sent',
  );
  v.check({ jsonrpc: '2.0', id: 1, result: inputRequired }, 'received');
  assert.deepEqual(v.failures, []);
  v.check({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: statelessMeta } }, 'sent');
  v.check({ jsonrpc: '2.0', id: 2, result: inputRequired }, 'received');
  assert.match(
    v.failures[0] ?? '',
    /result of "tools\/list" .* with resultType "input_required", which it may not return/,
  );
});

test('fields schema.ts types as number accept non-integers (schema.json says integer)', () => {
  const sampling = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 100.5 };
  for (const revision of HANDSHAKE) {
    assert.equal(
      validateAgainstDefinition(revision, 'CreateMessageRequest', {
        jsonrpc: '2.0',
        id: 1,
        method: 'sampling/createMessage',
        params: sampling,
      }).valid,
      true,
      revision,
    );
  }
  assert.equal(
    validateAgainstDefinition('2025-11-25', 'ElicitResult', { action: 'accept', content: { amount: 2.5 } })
      .valid,
    true,
  );
  assert.equal(validateAgainstDefinition('2025-11-25', 'TaskMetadata', { ttl: 1.5 }).valid, true);
  assert.equal(
    validateAgainstDefinition(STATELESS, 'CacheableResult', {
      resultType: 'complete',
      ttlMs: 1.5,
      cacheScope: 'public',
    }).valid,
    false,
    'ttlMs stays an integer',
  );
  assert.equal(
    validateAgainstDefinition('2025-11-25', 'JSONRPCErrorResponse', {
      jsonrpc: '2.0',
      id: 1,
      error: { code: 1.5, message: 'x' },
    }).valid,
    false,
  );
});

test('every official 2026-07-28 example validates against its definition', () => {
  const examples = new URL('../../spec/2026-07-28/examples/', import.meta.url);
  let count = 0;
  for (const definition of readdirSync(examples)) {
    for (const file of readdirSync(new URL(`${definition}/`, examples))) {
      const value: unknown = JSON.parse(readFileSync(new URL(`${definition}/${file}`, examples), 'utf8'));
      assert.deepEqual(
        validateAgainstDefinition(STATELESS, definition, value).errors,
        [],
        `${definition}/${file}`,
      );
      count += 1;
    }
  }
  assert.ok(count > 50, `only ${count} examples found`);
});

test('with a revision function, messages wait until the revision is known', () => {
  const session: { negotiated?: string } = {};
  const v = createWireValidator({ revision: () => session.negotiated, side: 'client' });
  v.check(
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    },
    'sent',
  );
  v.check(
    {
      jsonrpc: '2.0',
      id: 0,
      result: { protocolVersion: '2024-11-05', capabilities: {}, serverInfo: { name: 's', version: '1' } },
    },
    'received',
  );
  session.negotiated = '2024-11-05';
  v.check(
    {
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }] },
    },
    'received',
  );
  assert.equal(v.failures.length, 1, 'the queued exchange is clean; the unmatched result is not');
  const never = createWireValidator({ revision: () => undefined, side: 'server' });
  never.check({ jsonrpc: '2.0', method: 'notifications/initialized' }, 'received');
  assert.throws(() => never.assertClean(), /revision never became known; 1 message/);
});

test('an unknown revision is recorded as a failure, and validateAgainstDefinition throws', () => {
  const v = validator('2023-01-01');
  v.check({ jsonrpc: '2.0', method: 'notifications/initialized' }, 'sent');
  assert.match(
    v.failures[0] ?? '',
    /could not check a sent message against 2023-01-01: .*No official schema/,
  );
  assert.throws(() => validateAgainstDefinition('2023-01-01', 'Tool', {}), /No official schema/);
  assert.throws(
    () => validateAgainstDefinition('2025-11-25', 'NoSuchThing', {}),
    /no definition "NoSuchThing"/,
  );
});

test('in the hook path, a tapped channel reports bad messages to the validator and assertClean throws', async () => {
  let receiver: ChannelReceiver | undefined;
  const fake: Channel = {
    open: (r) => (receiver = r),
    send: async () => {},
    close: async () => {},
  };
  const v = createWireValidator({ revision: '2025-06-18', side: 'server' });
  const channel = tapChannel(fake, v.observer);
  channel.open({ handleFrame() {}, handleClose() {} });
  const deliver = (frame: Frame) => receiver?.handleFrame(frame);

  deliver({
    type: 'message',
    message: { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'file:///a' } },
  });
  const bad: Message = { jsonrpc: '2.0', id: 1, result: { contents: [{ uri: 'file:///a' }] } };
  await channel.send(bad);
  deliver({
    type: 'invalid',
    response: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Unexpected token' } },
  });
  deliver({
    type: 'batch',
    items: [{ type: 'message', message: { jsonrpc: '2.0', method: 'notifications/initialized' } }],
  });
  assert.equal(v.failures.length, 3);
  assert.throws(
    () => v.assertClean(),
    (error: unknown) =>
      error instanceof assert.AssertionError &&
      /3 wire failure\(s\)/.test(error.message) &&
      /sent result of "resources\/read" \(id 1\) is not a valid ReadResourceResult/.test(error.message) &&
      /not a JSON-RPC message: Parse error/.test(error.message) &&
      /batch, which 2025-06-18 does not allow/.test(error.message),
  );
  assert.doesNotThrow(() => createWireValidator({ revision: '2025-06-18', side: 'server' }).assertClean());
});
