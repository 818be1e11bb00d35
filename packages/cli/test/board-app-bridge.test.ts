// The github server's issue board driven by the official MCP Apps host: ext-apps' `AppBridge` and
// `PostMessageTransport`, bundled into a host page in headless Chromium (DevTools over a pipe). Node plays
// the rest of the host with our Client on a real `mcpwire serve github`: it finds show_issue_board's view
// (`appOf`), reads it (`readApp`), frames it sandboxed under the CSP its `_meta.ui` asks for, and answers
// the view's `tools/call` by calling the server. Checked: the handshake the bridge saw against ext-apps'
// schema.json, the columns and cards drawn, the "more" round trip, teardown, no warnings, no network.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from 'mcpwire';
import { appOf, readApp, type AppView } from 'mcpwire/extensions/apps';
import { openGithubAppHost, type GithubAppHost } from '../../../test/support/apps-github-host.ts';
import {
  assertExtAppsSchema as assertSchema,
  styleVariables,
} from '../../../test/support/ext-apps-schema.ts';
import { withCsp } from './support/app-csp.ts';
import {
  BridgeHostPage,
  writeHostPage,
  type HostConfig,
  type HostEvent,
} from './support/bridge-host-page.ts';
import { CdpBrowser } from './support/cdp.ts';
import { chromiumSkipReason } from './support/chromium.ts';

const skip = await chromiumSkipReason();

const INPUT = { owner: 'acme', repo: 'webapp', labels: ['bug', 'enhancement'], perColumn: 5 };
const EVIL = `<img src=x onerror="document.body.dataset.pwned='img'"> evil`;
const HOST_INFO = { name: 'mcpwire-bridge-test-host', version: '1.0.0' };
const HOST_CONTEXT = {
  theme: 'dark',
  displayMode: 'inline',
  availableDisplayModes: ['inline'],
  platform: 'web',
  locale: 'en-GB',
  styles: { variables: styleVariables({ '--color-background-primary': 'rgb(16, 20, 24)' }) },
};

interface Board {
  repository: string;
  columns: Array<{
    id: string;
    title: string;
    total: number;
    cards: Array<{ number: number; title: string }>;
  }>;
}

/** The view's board as its DOM has it: each column's id, heading, count, card numbers, "more" button. */
const DRAWN = `(() => ({
  state: document.body.dataset.state,
  status: document.getElementById('status').textContent,
  title: document.getElementById('title').textContent,
  theme: document.documentElement.dataset.theme,
  background: document.documentElement.style.getPropertyValue('--color-background-primary'),
  pwned: document.body.dataset.pwned ?? null,
  images: document.images.length,
  columns: [...document.querySelectorAll('section.column')].map((section) => ({
    id: section.dataset.column,
    title: section.querySelector('.name').textContent,
    total: Number(section.querySelector('.count').textContent),
    cards: [...section.querySelectorAll('li.card')].map((card) => Number(card.dataset.number)),
    more: section.querySelector('.more')?.textContent ?? null,
  })),
  firstTitle: document.querySelector('li.card .title')?.textContent ?? null,
}))()`;

/** What the server's board should look like drawn: {@link DRAWN}'s columns, from a tool result. */
function expectedColumns(board: Board) {
  return board.columns.map((column) => ({
    id: column.id,
    title: column.title,
    total: column.total,
    cards: column.cards.map((card) => card.number),
    more: column.total > column.cards.length ? `+${column.total - column.cards.length} more` : null,
  }));
}

type WireMessage = {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
};

function wire(events: readonly HostEvent[], from: 'view' | 'host'): WireMessage[] {
  return events
    .filter((event) => event.type === 'wire' && event.from === from)
    .map((event) => event.message as WireMessage);
}

/**
 * The handshake as the official bridge saw it (SEP-1865 lifecycle): the view's first message is
 * `ui/initialize` of ext-apps' shape, answered with a version both support, and its second is
 * `ui/notifications/initialized`; the bridge recorded the view's info and capabilities.
 */
function assertHandshake(events: readonly HostEvent[], initialized: HostEvent): void {
  const [request, notice] = wire(events, 'view');
  assert.equal(request?.method, 'ui/initialize');
  assertSchema('McpUiInitializeRequest', { method: request.method, params: request.params });
  const response = wire(events, 'host').find((message) => message.id === request.id && 'result' in message);
  assert.ok(response?.result, 'the bridge answered ui/initialize');
  assertSchema('McpUiInitializeResult', response.result);
  const version = request.params?.protocolVersion;
  assert.equal(response.result.protocolVersion, version, 'the version the view asked for');
  assert.ok(
    SUPPORTED_PROTOCOL_VERSIONS.includes(version as string),
    `${String(version)} is one ext-apps speaks`,
  );
  assert.deepEqual(response.result.hostInfo, HOST_INFO);
  assert.equal(notice?.method, 'ui/notifications/initialized');
  assertSchema('McpUiInitializedNotification', {
    method: notice.method,
    ...(notice.params ? { params: notice.params } : {}),
  });
  assert.deepEqual(initialized.appInfo, request.params?.appInfo);
  assert.deepEqual(initialized.appCapabilities, { availableDisplayModes: ['inline'] });
}

/**
 * Every message the view sent is one ext-apps knows, each size report of its shape; neither page
 * logged a warning or threw; nothing but the host page itself went through the network stack.
 */
function assertCleanRun(page: BridgeHostPage): void {
  const fromView = wire(page.events.items, 'view');
  assert.deepEqual([...new Set(fromView.map((message) => message.method ?? 'response'))].sort(), [
    'response',
    'tools/call',
    'ui/initialize',
    'ui/notifications/initialized',
    'ui/notifications/size-changed',
  ]);
  for (const message of fromView.filter((each) => each.method === 'ui/notifications/size-changed'))
    assertSchema('McpUiSizeChangedNotification', { method: message.method, params: message.params });
  assert.ok(
    page.events.items.some((event) => event.type === 'size'),
    'the bridge saw the size reports',
  );
  assert.deepEqual(page.problems, [], 'no warning, error or exception in the host or the view');
  assert.deepEqual(
    page.events.items.filter((event) => event.type === 'transport-error'),
    [],
    "ext-apps' transport parsed every message of the view",
  );
  assert.deepEqual(
    page.requests.filter((url) => !url.startsWith('file:') && !url.startsWith('about:')),
    [],
    'nothing fetched from the network',
  );
  assert.ok(
    page.requests.some((url) => url.startsWith('file:')),
    'the network log saw the host page itself',
  );
}

describe(
  'the issue board view under ext-apps AppBridge in headless Chromium',
  { skip, timeout: 900_000 },
  () => {
    let dir: string;
    let host: GithubAppHost;
    let browser: CdpBrowser;
    let view: AppView;
    let first: CallToolResult;
    let hostFile: string;
    const answered: Array<{ params: Record<string, unknown>; result: CallToolResult }> = [];

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'mcpwire-bridge-'));
      host = await openGithubAppHost({ db: join(dir, 'github.db') });
      // A new bug whose title is markup: the newest issue, so the first card of the bug column.
      const created = await host.client.callTool({
        name: 'create_issue',
        arguments: { owner: 'acme', repo: 'webapp', title: EVIL, labels: ['bug'] },
      });
      assert.notEqual(created.isError, true, JSON.stringify(created));
      const tool = (await host.client.listAllTools()).find((each) => each.name === 'show_issue_board');
      assert.ok(tool, 'show_issue_board is listed');
      const link = appOf(tool);
      assert.ok(link, 'show_issue_board names a view');
      view = await readApp(host.client, link.resourceUri);
      first = await host.client.callTool({ name: 'show_issue_board', arguments: INPUT });
      hostFile = await writeHostPage(dir);
      browser = await CdpBrowser.launch(['--window-size=1280,2400']);
    });

    after(async () => {
      await browser?.[Symbol.asyncDispose]();
      await host?.[Symbol.asyncDispose]();
      await rm(dir, { recursive: true, force: true });
    });

    /** The host page on a new tab, framing the board view; its tools/call answered by the server. */
    function openPage(outcome: Pick<HostConfig, 'result' | 'cancelled'>): Promise<BridgeHostPage> {
      return BridgeHostPage.open(
        browser,
        hostFile,
        {
          html: withCsp(view.html, view.meta.csp),
          ...(view.meta.permissions === undefined ? {} : { permissions: view.meta.permissions }),
          hostInfo: HOST_INFO,
          hostContext: HOST_CONTEXT,
          input: INPUT,
          ...outcome,
        },
        // The host proxies the view's call to the server, as a host with `serverTools` does.
        async (params) => {
          const result = await host.client.callTool(
            params as { name: string; arguments: Record<string, unknown> },
          );
          answered.push({ params, result });
          return result;
        },
      );
    }

    test('the bridge initializes the view, which draws the tool result, calls the server for more, and tears down', async () => {
      const page = await openPage({ result: first });
      // The view settles as drawn (`ready`) or refused (`error`, with the reason as its status line).
      await page.waitInView(`['ready', 'error'].includes(document.body.dataset.state)`);
      const drawn = (await page.evaluateInView(DRAWN)) as { columns: unknown[]; [key: string]: unknown };
      assert.equal(drawn.state, 'ready', `the view's status: ${String(drawn.status)}`);
      const initialized = page.events.items.find((event) => event.type === 'initialized');
      assert.ok(initialized, 'the bridge saw ui/notifications/initialized');

      assertHandshake(page.events.items, initialized);

      // The first result drawn: every column and card, markup as text, the host's dark theme applied.
      const board = first.structuredContent as unknown as Board;
      assert.deepEqual(drawn.columns, expectedColumns(board));
      assert.deepEqual(
        board.columns.map((column) => column.id),
        ['bug', 'enhancement', 'open', 'closed'],
      );
      assert.ok(
        board.columns.every((column) => column.cards.length === 5 && column.total > 5),
        'every column has more',
      );
      assert.equal(drawn.title, 'acme/webapp');
      assert.equal(drawn.firstTitle, EVIL, 'the markup title drawn as text');
      assert.equal(drawn.pwned, null);
      assert.equal(drawn.images, 0);
      assert.equal(drawn.theme, 'dark');
      assert.equal(drawn.background, 'rgb(16, 20, 24)');

      // A change of host context (SEP-1865 host-context-changed): the view follows the new theme.
      await page.evaluateInHost(`setHostContext(${JSON.stringify({ ...HOST_CONTEXT, theme: 'light' })})`);
      await page.waitInView(`document.documentElement.dataset.theme === 'light'`);
      const changes = wire(page.events.items, 'host').filter(
        (message) => message.method === 'ui/notifications/host-context-changed',
      );
      assert.deepEqual(
        changes.map((message) => message.params),
        [{ theme: 'light' }],
        'the bridge sent only what changed',
      );

      // "more": a real click; the view's tools/call goes through the bridge to Node, then to the server.
      await page.clickInView('[data-column="bug"] .more');
      await page.events.waitFor('the view called a tool', (event) => event.type === 'tools/call');
      await page.waitInView(
        `document.body.dataset.state === 'error' || (document.body.dataset.state === 'ready' && !document.querySelector('.more'))`,
      );
      const all = (await page.evaluateInView(DRAWN)) as { columns: unknown[]; [key: string]: unknown };
      assert.equal(all.state, 'ready', `the view's status: ${String(all.status)}`);
      const largest = Math.max(...board.columns.map((column) => column.total));
      assert.deepEqual(
        answered.map((call) => call.params),
        [{ name: 'show_issue_board', arguments: { ...INPUT, perColumn: Math.min(100, largest) } }],
      );
      const full = answered[0]!.result.structuredContent as unknown as Board;
      assert.ok(
        full.columns.every((column) => column.cards.length === column.total),
        'the answer holds every card',
      );
      assert.deepEqual(all.columns, expectedColumns(full));
      const call = wire(page.events.items, 'view').find((message) => message.method === 'tools/call');
      const relayed = wire(page.events.items, 'host').find(
        (message) => 'result' in message && message.id === call?.id,
      );
      assert.deepEqual(
        relayed?.result,
        answered[0]!.result,
        "the bridge relayed the server's result unchanged",
      );

      // Teardown: the bridge asks, the view answers (SEP-1865: the host waits for it before unmounting).
      await page.evaluateInHost('teardownView()');
      const teardown = await page.events.waitFor('the teardown answer', (event) => event.type === 'teardown');
      assert.deepEqual(teardown.result, {});

      assertCleanRun(page);
    });

    test('a cancelled call: the bridge sends tool-cancelled and the view shows it, with no result drawn', async () => {
      const calls = answered.length;
      const page = await openPage({ cancelled: 'the user stopped it' });
      await page.waitInView(`['cancelled', 'ready', 'error'].includes(document.body.dataset.state)`);
      const drawn = (await page.evaluateInView(DRAWN)) as { [key: string]: unknown };
      assert.equal(drawn.state, 'cancelled', `the view's status: ${String(drawn.status)}`);
      assert.equal(drawn.status, 'Cancelled: the user stopped it');
      assert.deepEqual(drawn.columns, []);
      assert.equal(drawn.title, 'acme/webapp', 'from the tool input');
      const sent = wire(page.events.items, 'host').flatMap((message) => message.method ?? []);
      assert.deepEqual(
        sent.filter((method) => method.startsWith('ui/notifications/tool-')),
        ['ui/notifications/tool-input', 'ui/notifications/tool-cancelled'],
      );
      const cancel = wire(page.events.items, 'host').find(
        (message) => message.method === 'ui/notifications/tool-cancelled',
      );
      assert.deepEqual(cancel?.params, { reason: 'the user stopped it' });
      assert.equal(answered.length, calls, 'the view called no tool');
      assert.deepEqual(page.problems, [], 'no warning, error or exception in the host or the view');
    });
  },
);
