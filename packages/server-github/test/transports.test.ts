// The github server over real transports in both eras: a spawned stdio process (STDIO-1/2) on a
// database file that outlives it, and Streamable HTTP on a port (one Server, many connections),
// where two clients writing at once lose nothing and a comment from one reaches the other's
// subscription (RES-5 over a session's GET stream; S26-SUB-4 over a listen SSE stream).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from 'mcpwire/client';
import { createHttpHandler, StreamableHttpClientTransport } from 'mcpwire/http';
import { serveHttp } from 'mcpwire/node';
import { StdioClientTransport } from 'mcpwire/stdio';
import { SOURCE_CONDITIONS, testChildEnv } from '../../../test/support/node-options.ts';
import { createGithubServer } from '../src/github.ts';
import { callOk, ERAS, nextUpdate, TempDir } from './support/peers.ts';

const WEBAPP = { owner: 'acme', repo: 'webapp' };
const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');
const FIXTURE = join(import.meta.dirname, 'fixtures', 'serve-github.ts');

/** A stdio transport that starts the fixture server on `db`. */
function stdioTransport(db: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [...SOURCE_CONDITIONS, '--import', 'tsx', FIXTURE, db],
    cwd: REPO_ROOT,
    env: testChildEnv(),
    stderr: 'ignore',
  });
}

function newClient(era: 'handshake' | 'stateless', name: string): Client {
  return new Client({ name, version: '1.0.0' }, { era, eraCache: false });
}

for (const era of ERAS) {
  test(`${era} era over stdio: tools, a resource and a prompt; the data outlives the process`, async () => {
    using dir = new TempDir();
    const db = dir.file('github.sqlite3');
    const first = newClient(era, 'stdio-first');
    await first.connect(stdioTransport(db));
    const tools = await first.listAllTools();
    assert.ok(tools.some((tool) => tool.name === 'search_issues'));
    const created = await callOk<{ number: number }>(first, 'create_issue', {
      ...WEBAPP,
      title: `Made over stdio (${era})`,
    });
    const resource = await first.readResource({ uri: `github://repos/acme/webapp/issues/${created.number}` });
    assert.match(JSON.stringify(resource.contents), /Made over stdio/);
    const prompt = await first.getPrompt({
      name: 'triage_issue',
      arguments: { ...WEBAPP, issue_number: String(created.number) },
    });
    assert.equal(prompt.messages[0]?.content.type, 'resource');
    await first.close();

    const second = newClient(era, 'stdio-second');
    await second.connect(stdioTransport(db));
    const again = await callOk<{ title: string }>(second, 'get_issue', {
      ...WEBAPP,
      issue_number: created.number,
    });
    assert.equal(again.title, `Made over stdio (${era})`);
    await second.close();
  });
}

/** A github server on `db` behind the HTTP handler on an ephemeral port; dispose to stop both. */
async function startHttp(db: string) {
  const server = createGithubServer({ db });
  const handler = createHttpHandler(server);
  const http = await serveHttp(handler, { port: 0 });
  return {
    url: http.url,
    async [Symbol.asyncDispose]() {
      await http.close();
      await server.close();
    },
  };
}

async function connectHttp(url: string, era: 'handshake' | 'stateless', name: string): Promise<Client> {
  const client = newClient(era, name);
  await client.connect(new StreamableHttpClientTransport(url));
  return client;
}

test('two clients writing at once over HTTP lose nothing (one transaction per write)', async () => {
  using dir = new TempDir();
  await using http = await startHttp(dir.file('github.sqlite3'));
  const [handshake, stateless] = await Promise.all([
    connectHttp(http.url, 'handshake', 'writer-a'),
    connectHttp(http.url, 'stateless', 'writer-b'),
  ]);
  const before = await callOk<{ total_count: number }>(handshake, 'list_issues', { ...WEBAPP, state: 'all' });
  const writes = (client: Client, tag: string) =>
    Array.from({ length: 20 }, (_, index) =>
      callOk<{ number: number }>(client, 'create_issue', { ...WEBAPP, title: `${tag} ${index}` }),
    );
  const created = await Promise.all([...writes(handshake, 'from-a'), ...writes(stateless, 'from-b')]);
  const numbers = created.map((issue) => issue.number);
  assert.equal(new Set(numbers).size, 40, 'every issue got its own number');
  const comments = await Promise.all(
    numbers
      .slice(0, 10)
      .flatMap((number) =>
        [handshake, stateless].map((client) =>
          callOk(client, 'add_issue_comment', { ...WEBAPP, issue_number: number, body: `by ${client.era}` }),
        ),
      ),
  );
  assert.equal(comments.length, 20);
  const after = await callOk<{ total_count: number }>(stateless, 'list_issues', { ...WEBAPP, state: 'all' });
  assert.equal(after.total_count, before.total_count + 40);
  for (const number of numbers.slice(0, 10)) {
    const issue = await callOk<{ comments: number }>(handshake, 'get_issue', {
      ...WEBAPP,
      issue_number: number,
    });
    assert.equal(issue.comments, 2);
  }
  await Promise.all([handshake.close(), stateless.close()]);
});

for (const era of ERAS) {
  test(`${era} era over HTTP: a comment by another client reaches the subscribed one`, async () => {
    using dir = new TempDir();
    await using http = await startHttp(dir.file('github.sqlite3'));
    const watcher = await connectHttp(http.url, era, 'watcher');
    const writer = await connectHttp(http.url, era, 'writer');
    const uri = 'github://repos/acme/webapp/issues/5';
    const heard = nextUpdate(watcher, uri);
    let close = (): void => {};
    if (era === 'handshake') await watcher.subscribeResource({ uri });
    else {
      const subscription = watcher.listen({ resourceSubscriptions: [uri] });
      await subscription.acknowledged;
      close = () => subscription.close();
    }
    await callOk(writer, 'add_issue_comment', { ...WEBAPP, issue_number: 5, body: 'Over HTTP' });
    assert.equal(await heard, uri);
    close();
    await Promise.all([watcher.close(), writer.close()]);
  });
}
