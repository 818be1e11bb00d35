// The apps extension end to end over the in-memory channel pair, in both eras: a view served as a
// ui:// resource with its _meta.ui, a tool's link shown only to a client that renders apps, app-only
// tools hidden and refused otherwise, and the host's checks of a tool's link and of a view.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '../../client/client.ts';
import type { ClientOptions } from '../../client/client-options.ts';
import { RpcError } from '../../jsonrpc/rpc-error.ts';
import type { Tool } from '../../protocol/types/index.ts';
import { Server } from '../../server/server.ts';
import { createMemoryPair } from '../../transports/memory.ts';
import {
  APP_MIME_TYPE,
  AppError,
  appOf,
  apps,
  isVisibleToModel,
  readApp,
  type AppViewDefinition,
} from './index.ts';

const VIEW_URI = 'ui://test/counter';
const HTML = '<!DOCTYPE html><html><body><p id="count">0</p></body></html>';
const VIEW: AppViewDefinition = {
  uri: VIEW_URI,
  name: 'Counter',
  description: 'Shows the count.',
  html: HTML,
  csp: { connectDomains: [], resourceDomains: ['https://cdn.example.com'] },
  permissions: { clipboardWrite: {} },
  prefersBorder: true,
};

/** A server with one view, a model+app tool linked to it, an app-only tool and a plain tool. */
function createServer(): Server {
  const ui = apps({ views: [VIEW] });
  const server = new Server({ name: 'apps-test', version: '1' }, { extensions: [ui] });
  server.tool(
    {
      name: 'show_count',
      description: 'Shows the count in a view.',
      _meta: { ...ui.toolMeta(VIEW_URI), 'com.example/kept': true },
    },
    () => ({ structuredContent: { count: 3 }, content: [{ type: 'text', text: 'The count is 3.' }] }),
  );
  server.tool(
    { name: 'increment', description: 'The view calls this.', _meta: ui.toolMeta(VIEW_URI, ['app']) },
    () => 'incremented',
  );
  server.tool({ name: 'plain', description: 'No view.' }, () => 'plain');
  return server;
}

/** Our Client on `server` in `era`; `declare` adds the apps extension to its capabilities. */
async function connect(era: 'handshake' | 'auto', options: ClientOptions = {}): Promise<Client> {
  const server = createServer();
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client({ name: 'apps-host', version: '1' }, { era, eraCache: false, ...options });
  await client.connect(clientEnd);
  return client;
}

function byName(tools: readonly Tool[]): Record<string, Tool> {
  return Object.fromEntries(tools.map((tool) => [tool.name, tool]));
}

for (const era of ['handshake', 'auto'] as const) {
  test(`${era}: a client that renders apps sees each tool's _meta.ui and reads the view (S26-EXT-1)`, async () => {
    const client = await connect(era, { extensions: [apps()] });
    assert.equal(client.protocolVersion === '2026-07-28', era === 'auto', 'the era asked for');
    assert.deepEqual(client.serverCapabilities?.extensions, { 'io.modelcontextprotocol/ui': {} });
    const tools = byName(await client.listAllTools());
    assert.deepEqual(Object.keys(tools), ['show_count', 'increment', 'plain']);
    assert.deepEqual(tools.show_count!._meta, {
      ui: { resourceUri: VIEW_URI },
      'com.example/kept': true,
    });
    assert.deepEqual(tools.increment!._meta, { ui: { resourceUri: VIEW_URI, visibility: ['app'] } });
    assert.deepEqual(appOf(tools.show_count!), { resourceUri: VIEW_URI, visibility: ['model', 'app'] });
    assert.equal(appOf(tools.plain!), undefined);
    // The host builds the model's tool list without app-only tools.
    assert.deepEqual(
      Object.values(tools)
        .filter((tool) => isVisibleToModel(tool))
        .map((tool) => tool.name),
      ['show_count', 'plain'],
    );
    assert.equal(textOf(await client.callTool({ name: 'increment', arguments: {} })), 'incremented');

    const [listed] = await client.listAllResources();
    assert.deepEqual(listed, {
      uri: VIEW_URI,
      name: 'Counter',
      description: 'Shows the count.',
      mimeType: APP_MIME_TYPE,
      _meta: {
        ui: {
          csp: { connectDomains: [], resourceDomains: ['https://cdn.example.com'] },
          permissions: { clipboardWrite: {} },
          prefersBorder: true,
        },
      },
    });
    const view = await readApp(client, VIEW_URI);
    assert.equal(view.html, HTML);
    assert.equal(view.mimeType, 'text/html;profile=mcp-app');
    assert.deepEqual(view.meta, listed!._meta!.ui);
    await client.close();
  });

  test(`${era}: a client without the extension gets plain tools, no app-only tool, no views listed (S26-EXT-3)`, async () => {
    const client = await connect(era);
    const tools = await client.listAllTools();
    assert.deepEqual(
      tools.map((tool) => [tool.name, tool._meta]),
      [
        ['show_count', { 'com.example/kept': true }],
        ['plain', undefined],
      ],
    );
    // The text fallback: the same result, meaningful without a view.
    const result = await client.callTool({ name: 'show_count', arguments: {} });
    assert.equal(textOf(result), 'The count is 3.');
    await assert.rejects(
      client.callTool({ name: 'increment', arguments: {} }),
      (error: unknown) =>
        error instanceof RpcError && error.code === -32602 && /Unknown tool/.test(error.message),
    );
    assert.deepEqual(await client.listAllResources(), []);
    // A read by URI is core behaviour and still served (an inspector may look at the page).
    assert.equal((await readApp(client, VIEW_URI)).html, HTML);
    await client.close();
  });

  test(`${era}: declaring the extension without the HTML profile is not rendering our views`, async () => {
    const client = await connect(era, {
      capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/uri-list'] } } },
    });
    const tools = await client.listAllTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['show_count', 'plain'],
    );
    assert.equal(appOf(tools[0]!), undefined);
    await client.close();
  });
}

function textOf(result: { content: readonly { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

/** A fake resources/read answer, for the reader's checks. */
function answering(contents: unknown[]) {
  return { readResource: () => Promise.resolve({ contents } as never) };
}

test('readApp checks the URI, the contents item, the mime type, the encoding and _meta.ui', async () => {
  const reasonOf = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => assert.fail('expected an AppError'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof AppError, String(error));
    return error.reason;
  };
  const ok = { uri: VIEW_URI, mimeType: APP_MIME_TYPE, text: HTML };
  assert.equal(await reasonOf(readApp(answering([ok]), 'https://example.com/page')), 'uri');
  assert.equal(await reasonOf(readApp(answering([{ ...ok, uri: 'ui://other' }]), VIEW_URI)), 'contents');
  assert.equal(await reasonOf(readApp(answering([{ ...ok, mimeType: 'text/html' }]), VIEW_URI)), 'mime-type');
  assert.equal(
    await reasonOf(readApp(answering([{ uri: VIEW_URI, mimeType: APP_MIME_TYPE }]), VIEW_URI)),
    'contents',
  );
  assert.equal(
    await reasonOf(
      readApp(answering([{ ...ok, _meta: { ui: { csp: { connectDomains: 'x' } } } }]), VIEW_URI),
    ),
    'view-meta',
  );
  assert.equal(
    await reasonOf(readApp(answering([{ ...ok, _meta: { ui: { prefersBorder: 'yes' } } }]), VIEW_URI)),
    'view-meta',
  );
  const blob = { uri: VIEW_URI, mimeType: APP_MIME_TYPE, blob: Buffer.from('<p>é</p>').toString('base64') };
  assert.equal((await readApp(answering([blob]), VIEW_URI)).html, '<p>é</p>');
  assert.equal(
    await reasonOf(
      readApp(answering([{ ...blob, blob: Buffer.from([0xff, 0xfe]).toString('base64') }]), VIEW_URI),
    ),
    'contents',
  );
});

test('appOf reads the deprecated flat key, defaults visibility, and refuses a non-ui:// link', () => {
  assert.deepEqual(appOf({ name: 't', _meta: { 'ui/resourceUri': VIEW_URI } }), {
    resourceUri: VIEW_URI,
    visibility: ['model', 'app'],
  });
  assert.throws(
    () => appOf({ name: 't', _meta: { ui: { resourceUri: 'https://example.com/' } } }),
    (error: unknown) => error instanceof AppError && error.reason === 'uri',
  );
  assert.throws(
    () => appOf({ name: 't', _meta: { ui: { resourceUri: VIEW_URI, visibility: ['everyone'] } } }),
    (error: unknown) => error instanceof AppError && error.reason === 'tool-meta',
  );
  assert.equal(isVisibleToModel({ _meta: { ui: { visibility: ['model'] } } }), true);
  assert.equal(isVisibleToModel({ _meta: { ui: { visibility: ['app'] } } }), false);
  assert.equal(isVisibleToModel({}), true);
});

test('apps() refuses a view outside ui://, an unknown CSP field or permission, and one URI twice', () => {
  assert.throws(
    () => apps({ views: [{ ...VIEW, uri: 'https://example.com/x' }] }),
    /must start with "ui:\/\/"/,
  );
  assert.throws(
    () => apps({ views: [{ ...VIEW, csp: { scriptDomains: ['https://x'] } as never }] }),
    /unknown CSP field "scriptDomains"/,
  );
  assert.throws(
    () => apps({ views: [{ ...VIEW, permissions: { usb: {} } as never }] }),
    /unknown permission "usb"/,
  );
  assert.throws(() => apps({ views: [VIEW, VIEW] }), /defined twice/);
  const ui = apps({ views: [VIEW] });
  assert.throws(() => ui.toolMeta('ui://test/missing'), /No app view "ui:\/\/test\/missing"/);
  assert.throws(() => ui.toolMeta(VIEW_URI, []), /Invalid visibility/);
});

test('a view whose CSP is omitted is served without one, so the host applies its strictest default', async () => {
  const server = new Server(
    { name: 'apps-test', version: '1' },
    {
      extensions: [
        apps({ views: [{ uri: 'ui://test/bare', name: 'Bare', html: () => Promise.resolve(HTML) }] }),
      ],
    },
  );
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client({ name: 'apps-host', version: '1' }, { era: 'handshake', extensions: [apps()] });
  await client.connect(clientEnd);
  const result = await client.readResource({ uri: 'ui://test/bare' });
  assert.deepEqual(result.contents, [
    { uri: 'ui://test/bare', mimeType: APP_MIME_TYPE, text: HTML, _meta: { ui: {} } },
  ]);
  await client.close();
});
