// The issue board (MCP Apps) in both eras: show_issue_board's columns agree with list_issues, its link
// to ui://github/issue-board is shown only to a client that renders apps (decided per request in the
// stateless era, over the Streamable HTTP handler), and the view is one page that loads nothing.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apps, appOf, readApp } from 'mcpwire/extensions/apps';
import { createHttpHandler } from 'mcpwire/http';
import { BOARD_URI } from '../src/board.ts';
import type { IssueBoard } from '../src/board-model.ts';
import { call, callOk, connectClient, createMemoryServer, ERAS, textOf } from './support/peers.ts';

const WEBAPP = { owner: 'acme', repo: 'webapp' };

interface IssueLike {
  number: number;
  state: string;
  labels: Array<{ name: string }>;
}

for (const era of ERAS) {
  test(`${era} era: a host that renders apps gets the board's link and view; the columns match list_issues`, async () => {
    await using server = createMemoryServer();
    const client = await connectClient(server, era, { extensions: [apps()] });
    const tool = (await client.listAllTools()).find((listed) => listed.name === 'show_issue_board')!;
    assert.deepEqual(appOf(tool), { resourceUri: BOARD_URI, visibility: ['model', 'app'] });
    const view = await readApp(client, BOARD_URI);
    // No origin at all: no network, scripts, styles, frames or base URIs from anywhere.
    assert.deepEqual(view.meta, {
      csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
      prefersBorder: true,
    });
    assert.match(view.html, /^<!DOCTYPE html>/);

    const labels = ['bug', 'enhancement'];
    const board = await callOk<IssueBoard>(client, 'show_issue_board', { ...WEBAPP, labels, perColumn: 100 });
    const all = await callOk<{ total_count: number; issues: IssueLike[] }>(client, 'list_issues', {
      ...WEBAPP,
      state: 'all',
      perPage: 100,
    });
    const rest = await callOk<{ issues: IssueLike[] }>(client, 'list_issues', {
      ...WEBAPP,
      state: 'all',
      perPage: 100,
      page: 2,
    });
    const issues = [...all.issues, ...rest.issues];
    assert.equal(issues.length, all.total_count, 'every issue of the repository read');
    const expected = (id: string) =>
      issues
        .filter((issue) => {
          const names = issue.labels.map((label) => label.name);
          if (id === 'closed') return issue.state === 'closed';
          if (issue.state === 'closed') return false;
          const first = labels.find((label) => names.includes(label)) ?? 'open';
          return first === id;
        })
        .map((issue) => issue.number);
    assert.equal(board.repository, 'acme/webapp');
    assert.deepEqual(
      board.columns.map((column) => column.id),
      ['bug', 'enhancement', 'open', 'closed'],
    );
    for (const column of board.columns) {
      assert.deepEqual(
        column.cards.map((card) => card.number),
        expected(column.id),
        column.id,
      );
      assert.equal(column.total, column.cards.length);
    }
    assert.ok(
      board.columns.every((column) => column.total > 0),
      'every column has issues in the seed',
    );
    await client.close();
  });

  test(`${era} era: a client without the extension sees a plain tool and gets the board as text`, async () => {
    await using server = createMemoryServer();
    const client = await connectClient(server, era);
    const tool = (await client.listAllTools()).find((listed) => listed.name === 'show_issue_board')!;
    assert.equal(tool._meta, undefined);
    assert.deepEqual(await client.listAllResources(), []);
    const result = await call(client, 'show_issue_board', { ...WEBAPP, perColumn: 2 });
    const board = result.structuredContent as unknown as IssueBoard;
    const text = textOf(result);
    assert.match(text, /^Issue board of acme\/webapp\n/);
    for (const column of board.columns) {
      assert.ok(
        text.includes(`\n${column.title} (${column.total}, first 2)\n`),
        `${column.title} in:\n${text}`,
      );
      for (const card of column.cards) assert.ok(text.includes(`  #${card.number} ${card.title}`));
    }
    await client.close();
  });
}

test('stateless era over Streamable HTTP: the link follows each request’s own client capabilities (S26-EXT-2)', async () => {
  await using server = createMemoryServer();
  const handler = createHttpHandler(server);
  const listTools = async (clientCapabilities: object) => {
    const response = await handler(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'tools/list',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': clientCapabilities,
              'io.modelcontextprotocol/clientInfo': { name: 'board-test', version: '1.0.0' },
            },
          },
        }),
      }),
    );
    assert.equal(response.status, 200);
    const body = (await response.json()) as { result: { tools: Array<{ name: string; _meta?: object }> } };
    return body.result.tools.find((tool) => tool.name === 'show_issue_board')!._meta;
  };
  const host = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
  assert.deepEqual(await listTools(host), { ui: { resourceUri: BOARD_URI } });
  assert.equal(await listTools({}), undefined);
  assert.deepEqual(await listTools(host), { ui: { resourceUri: BOARD_URI } });
});

test('the view is one self-contained page: nothing it could load, issue text set only as text', async () => {
  await using server = createMemoryServer();
  const client = await connectClient(server, 'handshake', { extensions: [apps()] });
  const { html } = await readApp(client, BOARD_URI);
  assert.doesNotMatch(html, /<(link|img|iframe|object|embed|audio|video|source|base)\b/i);
  assert.doesNotMatch(html, /\s(src|srcset|href|action|poster)=/i);
  assert.doesNotMatch(html, /url\(|@import|fetch\(|XMLHttpRequest|WebSocket|EventSource|importScripts/);
  assert.doesNotMatch(html, /innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  assert.equal(html.match(/<script>/g)?.length, 1);
  await client.close();
});
