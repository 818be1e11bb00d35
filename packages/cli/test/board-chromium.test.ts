// The github server's issue board (MCP Apps) in headless Chromium: `mcpwire call show_issue_board` and
// `mcpwire read ui://github/issue-board` against `mcpwire serve github`, then a harness page plays the
// host: it loads the view in a sandboxed iframe under the CSP the resource declares, answers
// `ui/initialize`, sends the tool input and the real tool result, copies out the drawn DOM, presses
// "more" and answers the view's `tools/call` with the server's real answer to those arguments.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cspOf } from './support/app-csp.ts';
import { chromiumSkipReason, decodePng, decodeText, dumpDom, screenshot } from './support/chromium.ts';
import { MCPWIRE, runCli } from './support/cli-process.ts';

const skip = await chromiumSkipReason();

/** Postmessage rounds run after the page's load; virtual time lets them finish before the dump. */
const CHROMIUM = { flags: ['--virtual-time-budget=10000'] };
const EVIL = `<img src=x onerror="document.body.dataset.pwned='img'"><script>document.body.dataset.pwned='script'</script>`;
const INPUT = { owner: 'acme', repo: 'webapp', labels: ['bug', 'enhancement'], perColumn: 6 };

interface Card {
  number: number;
  title: string;
}
interface Column {
  id: string;
  title: string;
  total: number;
  cards: Card[];
}
interface ToolResult {
  structuredContent: { repository: string; columns: Column[] };
}
interface View {
  text: string;
  _meta: { ui: { csp: Record<string, string[]> } };
}

/**
 * The host, as far as the view needs one. `allow-same-origin` is the harness's only liberty: it lets
 * the harness copy the view's DOM into its own for `--dump-dom` and press the view's "more" button;
 * the view's CSP is the resource's. The view's `tools/call` is answered with `all` when its arguments
 * are `allArguments` (the host proxying to the server), else refused.
 */
function harnessPage(view: View, first: ToolResult, all: { args: object; result: ToolResult }): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${cspOf(view._meta.ui.csp)}">`;
  const html = view.text.replace('<head>', `<head>${meta}`);
  const data = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  return `<!DOCTYPE html><html><head><style>body{margin:0}iframe{border:0;width:100%;height:800px;display:block}</style></head>
<body data-harness="waiting"><iframe id="view" sandbox="allow-scripts allow-same-origin"></iframe>
<pre id="log" hidden></pre><pre id="dom-first" hidden></pre><pre id="dom" hidden></pre>
<script>
const frame = document.getElementById('view');
const log = [];
let phase = 'starting';
function toView(message) { frame.contentWindow.postMessage(Object.assign({ jsonrpc: '2.0' }, message), '*'); }
function viewDom() { return frame.contentDocument.documentElement.outerHTML; }
window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow) return;
  const message = event.data;
  log.push(message);
  document.getElementById('log').textContent = log.map((entry) => JSON.stringify(entry)).join('\\n');
  const isReady = frame.contentDocument.body.dataset.state === 'ready';
  if (message.method === 'ui/initialize') {
    toView({ id: message.id, result: { protocolVersion: '2026-01-26', hostInfo: { name: 'board-harness', version: '1.0.0' },
      hostCapabilities: { serverTools: {} }, hostContext: { theme: 'light', displayMode: 'inline', platform: 'web' } } });
  } else if (message.method === 'ui/notifications/initialized') {
    toView({ method: 'ui/notifications/tool-input', params: { arguments: ${data(INPUT)} } });
    toView({ method: 'ui/notifications/tool-result', params: ${data(first)} });
    phase = 'first';
  } else if (message.method === 'tools/call') {
    const isExpected = message.params.name === 'show_issue_board' &&
      JSON.stringify(message.params.arguments) === JSON.stringify(${data(all.args)});
    toView(isExpected ? { id: message.id, result: ${data(all.result)} }
      : { id: message.id, error: { code: -32602, message: 'unexpected call ' + JSON.stringify(message.params) } });
    phase = 'all';
  } else if (message.method === 'ui/notifications/size-changed' && isReady) {
    frame.style.height = Math.max(800, message.params.height) + 'px';
    if (phase === 'first') {
      document.getElementById('dom-first').textContent = viewDom();
      phase = 'clicked';
      frame.contentDocument.querySelector('[data-column="bug"] .more').click();
    } else if (phase === 'all') {
      document.getElementById('dom').textContent = viewDom();
      document.body.dataset.harness = 'done';
    }
  }
});
frame.srcdoc = ${data(html)};
</script></body></html>`;
}

function preText(dom: string, id: string): string {
  const match = new RegExp(`<pre id="${id}" hidden="">([\\s\\S]*?)</pre>`).exec(dom);
  assert.ok(match, `#${id} in the harness`);
  return decodeText(match[1]!);
}

/** Each drawn column: its id, heading, count and the card numbers in order, as the view's DOM has them. */
function drawnColumns(viewDom: string) {
  const sections = viewDom.split('<section class="column" ').slice(1);
  return sections.map((section) => ({
    id: /^data-column="([^"]*)"/.exec(section)![1],
    title: decodeText(/<span class="name">([^<]*)<\/span>/.exec(section)![1]!),
    total: Number(/<span class="count">(\d+)<\/span>/.exec(section)![1]),
    cards: [...section.matchAll(/<li class="card" data-number="(\d+)">/g)].map((match) => Number(match[1])),
  }));
}

describe('the issue board view in headless Chromium', { skip, timeout: 900_000 }, () => {
  let dir: string;
  let result: ToolResult;
  let all: { args: object; result: ToolResult };
  let harness: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpwire-board-'));
    const github = ['--', ...MCPWIRE, 'serve', 'github', '--db', join(dir, 'github.db')];
    // A new bug whose title is markup: the newest issue, so the first card of the bug column.
    const created = await runCli([
      'call',
      'create_issue',
      '--args',
      JSON.stringify({ owner: 'acme', repo: 'webapp', title: `${EVIL} evil`, labels: ['bug'] }),
      ...github,
    ]);
    assert.equal(created.code, 0, created.stderr);
    const [called, read] = await Promise.all([
      runCli(['call', 'show_issue_board', '--args', JSON.stringify(INPUT), '--json', ...github]),
      runCli(['read', 'ui://github/issue-board', '--json', ...github]),
    ]);
    assert.equal(called.code, 0, called.stderr);
    assert.equal(read.code, 0, read.stderr);
    result = JSON.parse(called.stdout) as ToolResult;
    const { contents } = JSON.parse(read.stdout) as { contents: Array<View & { mimeType: string }> };
    assert.equal(contents[0]!.mimeType, 'text/html;profile=mcp-app');
    // What the view will ask the host for when "more" is pressed: room for the largest column.
    const largest = Math.max(...result.structuredContent.columns.map((column) => column.total));
    const args = { ...INPUT, perColumn: Math.min(100, largest) };
    const expanded = await runCli([
      'call',
      'show_issue_board',
      '--args',
      JSON.stringify(args),
      '--json',
      ...github,
    ]);
    assert.equal(expanded.code, 0, expanded.stderr);
    all = { args, result: JSON.parse(expanded.stdout) as ToolResult };
    harness = join(dir, 'harness.html');
    await writeFile(harness, harnessPage(contents[0]!, result, all));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('the view speaks ui/initialize, draws every column and card of the tool result (markup as text), and asks the host for more', async () => {
    const dom = await dumpDom(harness, CHROMIUM);
    assert.match(dom, /<body data-harness="done">/, 'the view drew twice and reported its size each time');
    const messages = preText(dom, 'log')
      .split('\n')
      .map((line) => JSON.parse(line) as { id?: number; method: string; params: Record<string, unknown> });
    assert.deepEqual(
      messages.slice(0, 2).map((message) => message.method),
      ['ui/initialize', 'ui/notifications/initialized'],
    );
    assert.equal(messages[0]!.id, 1);
    assert.equal(messages[0]!.params.protocolVersion, '2026-01-26');
    assert.deepEqual(messages[0]!.params.appInfo, { name: 'mcpwire-issue-board', version: '1.0.0' });
    // Then only size reports, and the one tools/call the "more" button made, with the view's arguments.
    const calls = messages.slice(2).filter((message) => message.method !== 'ui/notifications/size-changed');
    assert.deepEqual(calls, [
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'show_issue_board', arguments: all.args },
      },
    ]);

    const view = preText(dom, 'dom-first');
    assert.match(view, /<body data-state="ready">/);
    assert.match(view, /<h1 id="title">acme\/webapp<\/h1>/);
    const expected = result.structuredContent.columns;
    const drawn = (columns: readonly Column[]) =>
      columns.map((column) => ({
        id: column.id,
        title: column.title,
        total: column.total,
        cards: column.cards.map((card) => card.number),
      }));
    assert.deepEqual(drawnColumns(view), drawn(expected));
    // After "more": the host's answer drawn in full, every card of every column.
    const final = preText(dom, 'dom');
    assert.match(final, /<body data-state="ready">/);
    assert.deepEqual(drawnColumns(final), drawn(all.result.structuredContent.columns));
    assert.ok(all.result.structuredContent.columns.every((column) => column.cards.length === column.total));
    assert.doesNotMatch(final, /class="more"/);
    assert.deepEqual(
      expected.map((column) => column.id),
      ['bug', 'enhancement', 'open', 'closed'],
    );
    assert.ok(expected.every((column) => column.cards.length === 6 && column.total > 6));
    // The markup title: its card is first in the bug column, drawn as text, and nothing of it ran.
    assert.ok(expected[0]!.cards[0]!.title.startsWith('<img src=x'));
    assert.ok(
      view.includes('<span class="title">&lt;img src=x onerror="document.body.dataset.pwned=\'img\'"&gt;'),
    );
    assert.doesNotMatch(view, /data-pwned|<img|<script>document/);
    assert.equal(view.match(/<script>/g)?.length, 1, "only the view's own script");
    assert.equal(view.match(/<button class="more" type="button">\+\d+ more<\/button>/g)?.length, 4);
  });

  test('a screenshot shows the board: the window size, the column headings and label colours', async () => {
    const png = join(dir, 'board.png');
    await screenshot(harness, png, { width: 1280, height: 800 }, CHROMIUM);
    const image = decodePng(await readFile(png));
    assert.deepEqual([image.width, image.height], [1280, 800]);
    const counts = new Map<number, number>();
    for (let at = 0; at < image.pixels.length; at += 4) {
      const rgb = (image.pixels[at]! << 16) | (image.pixels[at + 1]! << 8) | image.pixels[at + 2]!;
      counts.set(rgb, (counts.get(rgb) ?? 0) + 1);
    }
    assert.ok(counts.size > 100, `${counts.size} colours: text and cards were drawn`);
    // Solid fills: the column headings (the page's) and the bug and enhancement chips (the labels' own).
    const fills = { heading: 0x0969da, closedHeading: 0x8250df, bug: 0xd73a4a, enhancement: 0xa2eeef };
    for (const [name, colour] of Object.entries(fills))
      assert.ok(
        (counts.get(colour) ?? 0) > 200,
        `${name} #${colour.toString(16)}: ${counts.get(colour) ?? 0} px`,
      );
  });
});
