// MCP Apps metadata against the official `@modelcontextprotocol/ext-apps` package: what `mcpwire serve
// github` sends (show_issue_board's `_meta.ui`, the `ui://github/issue-board` view's `_meta.ui` on its
// listing and its read) and what our Client declares (`io.modelcontextprotocol/ui` settings, S26-EXT-5)
// validate against ext-apps' schema.json (strict: no unknown fields) and its exported zod schemas, in both
// eras; the same values, each broken in one field, are rejected.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  McpUiResourceMetaSchema,
  McpUiToolMetaSchema,
  RESOURCE_MIME_TYPE,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { ValidateFunction } from 'ajv';
import { createMemoryPair, type JsonRpcRequest } from 'mcpwire';
import { Client } from 'mcpwire/client';
import { APPS_EXTENSION_ID, apps, type AppViewDefinition } from 'mcpwire/extensions/apps';
import { Server } from 'mcpwire/server';
import { openGithubAppHost, type HostEra } from '../support/apps-github-host.ts';
import { assertExtAppsSchema, extAppsValidator } from '../support/ext-apps-schema.ts';

const BOARD_URI = 'ui://github/issue-board';
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

const TOOL_META = extAppsValidator('McpUiToolMeta');
const RESOURCE_META = extAppsValidator('McpUiResourceMeta');
const CLIENT_SETTINGS = extAppsValidator('McpUiClientCapabilities');

/** What our server and client put on the wire, read through our Client on a real `mcpwire serve github`. */
async function observe(era: HostEra) {
  await using host = await openGithubAppHost({ era });
  const tools = await host.client.listAllTools();
  const board = tools.find((tool) => tool.name === 'show_issue_board');
  assert.ok(board, `show_issue_board is listed (stderr: ${host.stderr()})`);
  const listed = (await host.client.listAllResources()).find((resource) => resource.uri === BOARD_URI);
  assert.ok(listed, `${BOARD_URI} is listed`);
  const read = await host.client.readResource({ uri: BOARD_URI });
  const requests = host.sent.filter((message): message is JsonRpcRequest => 'method' in message);
  return {
    protocolVersion: host.client.protocolVersion,
    toolUi: board._meta?.ui,
    listedUi: listed._meta?.ui,
    listedMimeType: listed.mimeType,
    readItem: read.contents[0],
    requests,
  };
}

/** The settings our client declared under the extension id in each request that carries capabilities. */
function declaredSettings(era: HostEra, requests: readonly JsonRpcRequest[]): unknown[] {
  const capabilitiesOf = (request: JsonRpcRequest): unknown => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    // Handshake era: once, in initialize; stateless era: in every request's _meta (S26-EXT-2).
    if (era === 'handshake') return request.method === 'initialize' ? params.capabilities : undefined;
    return (params._meta as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_KEY];
  };
  return requests
    .map(capabilitiesOf)
    .filter((capabilities) => capabilities !== undefined)
    .map(
      (capabilities) =>
        (capabilities as { extensions?: Record<string, unknown> }).extensions?.[APPS_EXTENSION_ID],
    );
}

for (const era of ['handshake', 'auto'] as const) {
  describe(
    `MCP Apps metadata of mcpwire serve github against ext-apps' schemas, era ${era}`,
    { timeout: 300_000 },
    () => {
      test("the tool's and the view's _meta.ui and our client's settings validate; each broken copy is rejected", async () => {
        const seen = await observe(era);
        assert.equal(seen.protocolVersion, era === 'handshake' ? '2025-11-25' : '2026-07-28');

        // show_issue_board's link to its view (SEP-1865 tool metadata).
        assert.deepEqual(seen.toolUi, { resourceUri: BOARD_URI });
        assertExtAppsSchema('McpUiToolMeta', seen.toolUi, 'tool _meta.ui');
        assert.ok(McpUiToolMetaSchema.safeParse(seen.toolUi).success, 'tool _meta.ui (zod)');

        // The view's _meta.ui, as listed and as read: the same, and of ext-apps' shape.
        assert.equal(seen.listedMimeType, RESOURCE_MIME_TYPE);
        assert.ok(seen.readItem && 'text' in seen.readItem, 'the view is read as text');
        assert.equal(seen.readItem.mimeType, RESOURCE_MIME_TYPE);
        const readUi = seen.readItem._meta?.ui;
        assert.deepEqual(readUi, seen.listedUi);
        assert.deepEqual(readUi, {
          csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
          prefersBorder: true,
        });
        for (const [where, ui] of [
          ['listed', seen.listedUi],
          ['read', readUi],
        ] as const) {
          assertExtAppsSchema('McpUiResourceMeta', ui, `view _meta.ui ${where}`);
          const parsed = McpUiResourceMetaSchema.safeParse(ui);
          assert.ok(parsed.success, `view _meta.ui ${where} (zod)`);
          assert.deepEqual(parsed.data, ui, 'zod kept every field: none is unknown to ext-apps');
        }

        // Our client's declaration, on every request that carries capabilities in this era.
        const settings = declaredSettings(era, seen.requests);
        assert.ok(settings.length >= (era === 'handshake' ? 1 : 3), `${settings.length} declarations seen`);
        for (const each of settings) {
          assertExtAppsSchema('McpUiClientCapabilities', each, 'client settings');
          // The schema's own words: "Must include text/html;profile=mcp-app for MCP Apps support".
          assert.deepEqual(each, { mimeTypes: [RESOURCE_MIME_TYPE] });
        }

        // Each value with one field broken: the checks above are able to fail.
        const broken: Array<[ValidateFunction, unknown, string]> = [
          [TOOL_META, { ...seen.toolUi, visibility: ['user'] }, 'a visibility that is neither model nor app'],
          [TOOL_META, { resourceUri: 42 }, 'a resourceUri that is not a string'],
          [TOOL_META, { resourceUri: BOARD_URI, csp: {} }, 'a csp on a tool (it belongs to the view)'],
          [RESOURCE_META, { ...readUi, prefersBorder: 'yes' }, 'a prefersBorder that is not a boolean'],
          [
            RESOURCE_META,
            { ...readUi, csp: { connectDomains: 'https://x.example' } },
            'a CSP list that is a string',
          ],
          [RESOURCE_META, { ...readUi, csp: { scriptDomains: [] } }, 'an unknown CSP field'],
          [RESOURCE_META, { ...readUi, permissions: { camera: true } }, 'a permission that is not an object'],
          [CLIENT_SETTINGS, { mimeTypes: RESOURCE_MIME_TYPE }, 'mimeTypes that is not a list'],
          [CLIENT_SETTINGS, { mimeTypes: [RESOURCE_MIME_TYPE], config: {} }, 'a config envelope (S26-EXT-1)'],
        ];
        for (const [validate, value, what] of broken)
          assert.equal(validate(value), false, `schema.json rejects ${what}: ${JSON.stringify(value)}`);
        assert.equal(
          McpUiToolMetaSchema.safeParse(broken[0]![1]).success,
          false,
          'zod rejects the bad visibility',
        );
        assert.equal(
          McpUiResourceMetaSchema.safeParse(broken[3]![1]).success,
          false,
          'zod rejects the bad border',
        );
      });
    },
  );
}

/** A view with every `_meta.ui` field our `apps()` accepts set, so each is checked against ext-apps. */
const FULL_VIEW: AppViewDefinition = {
  uri: 'ui://schema-test/full',
  name: 'full',
  html: '<!DOCTYPE html><html><head></head><body></body></html>',
  csp: {
    connectDomains: ['https://api.example.com'],
    resourceDomains: ['https://cdn.example.com'],
    frameDomains: ['https://embed.example.com'],
    baseUriDomains: ['https://example.com'],
  },
  permissions: { camera: {}, microphone: {}, geolocation: {}, clipboardWrite: {} },
  domain: 'a1b2c3.sandbox.example.com',
  prefersBorder: false,
};

test("every _meta.ui field apps() emits (all CSP lists, permissions, domain, each visibility) is of ext-apps' shape", async () => {
  const ui = apps({ views: [FULL_VIEW] });
  const server = new Server({ name: 'apps-schema', version: '1' }, { extensions: [ui] });
  const visibilities = {
    both: undefined,
    model: ['model'],
    app: ['app'],
    explicit: ['model', 'app'],
  } as const;
  for (const [name, visibility] of Object.entries(visibilities))
    server.tool(
      { name, description: `visibility ${name}`, _meta: ui.toolMeta(FULL_VIEW.uri, visibility) },
      () => name,
    );
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client(
    { name: 'apps-schema-host', version: '1' },
    { era: 'handshake', extensions: [apps()] },
  );
  await client.connect(clientEnd);
  try {
    const tools = await client.listAllTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      Object.keys(visibilities),
    );
    for (const tool of tools) assertExtAppsSchema('McpUiToolMeta', tool._meta?.ui, `${tool.name} _meta.ui`);
    const [listed] = await client.listAllResources();
    const read = await client.readResource({ uri: FULL_VIEW.uri });
    const expected = {
      csp: FULL_VIEW.csp,
      permissions: FULL_VIEW.permissions,
      domain: FULL_VIEW.domain,
      prefersBorder: false,
    };
    for (const [where, meta] of [
      ['listed', listed?._meta],
      ['read', read.contents[0]?._meta],
    ] as const) {
      assert.deepEqual(meta?.ui, expected, `${where}: every field as defined`);
      assertExtAppsSchema('McpUiResourceMeta', meta?.ui, `${where} _meta.ui`);
      const parsed = McpUiResourceMetaSchema.safeParse(meta?.ui);
      assert.ok(parsed.success, `${where} (zod)`);
      assert.deepEqual(parsed.data, expected, 'zod kept every field');
    }
  } finally {
    await client.close();
  }
});
