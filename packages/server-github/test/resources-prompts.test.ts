// Resources and prompts in both eras: the four URI templates (RES-2) and reading them, not-found
// as the era's error (RES-8 / S26-RES-2), completion of owner, repo, number and path (COMP-2..4),
// a comment from one client reaching another client subscribed to the issue (RES-5, S26-SUB-7),
// and the triage and review prompts with their embedded resources (PROMPT-3, PROMPT-4).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { McpErrorCode, RpcError } from 'mcpwire';
import type { Client } from 'mcpwire/client';
import { callOk, connectClient, createMemoryServer, ERAS, nextUpdate } from './support/peers.ts';

const WEBAPP = { owner: 'acme', repo: 'webapp' };
const ISSUE = 'github://repos/{owner}/{repo}/issues/{number}';

function textContents(result: { contents: ReadonlyArray<{ uri: string }> }): string {
  const [first] = result.contents;
  return first && 'text' in first ? String(first.text) : '';
}

async function firstPullNumber(client: Client): Promise<number> {
  const { pull_requests: pulls } = await callOk<{ pull_requests: Array<{ number: number }> }>(
    client,
    'list_pull_requests',
    { ...WEBAPP, state: 'all' },
  );
  return pulls[0]!.number;
}

/** Subscribes `client` to `uri` the era's way; resolves once the server has taken it. Returns the unsubscribe. */
async function subscribe(client: Client, era: 'handshake' | 'stateless', uri: string): Promise<() => void> {
  if (era === 'handshake') {
    await client.subscribeResource({ uri });
    return () => {};
  }
  const subscription = client.listen({ resourceSubscriptions: [uri] });
  const acknowledged = await subscription.acknowledged;
  assert.deepEqual(
    acknowledged.resourceSubscriptions,
    [uri],
    'S26-SUB-2: the acknowledgement honours the URI',
  );
  return () => subscription.close();
}

for (const era of ERAS) {
  test(`${era} era: the templates are listed and every kind of resource reads`, async () => {
    await using server = createMemoryServer();
    const client = await connectClient(server, era);
    const templates = (await client.listAllResourceTemplates())
      .map((template) => template.uriTemplate)
      .sort();
    assert.deepEqual(templates, [
      'github://repos/{owner}/{repo}/contents/{+path}{?ref}',
      ISSUE,
      'github://repos/{owner}/{repo}/pulls/{number}',
      'github://repos/{owner}/{repo}/pulls/{number}/diff',
    ]);
    const issue = await client.readResource({ uri: 'github://repos/acme/webapp/issues/1' });
    assert.equal(issue.contents[0]?.mimeType, 'text/markdown');
    assert.match(textContents(issue), /^# .+\n\n- Issue acme\/webapp#1 /);
    const number = await firstPullNumber(client);
    assert.match(
      textContents(await client.readResource({ uri: `github://repos/acme/webapp/pulls/${number}` })),
      /Pull request acme\/webapp#/,
    );
    const diff = await client.readResource({ uri: `github://repos/acme/webapp/pulls/${number}/diff` });
    assert.equal(diff.contents[0]?.mimeType, 'text/x-diff');
    assert.match(textContents(diff), /^diff --git /);
    const file = await client.readResource({
      uri: 'github://repos/acme/webapp/contents/src/auth/session.ts',
    });
    assert.match(textContents(file), /loadSession/);
    await client.close();
  });

  test(`${era} era: a resource that names nothing is the era's not-found error with data.uri`, async () => {
    await using server = createMemoryServer();
    const client = await connectClient(server, era);
    const expected = era === 'handshake' ? McpErrorCode.ResourceNotFound : -32602;
    for (const uri of [
      'github://repos/acme/webapp/issues/999999',
      'github://repos/nobody/x/issues/1',
      'github://repos/acme/webapp/contents/no/such/file.ts',
      'github://repos/acme/webapp/pulls/1',
    ]) {
      await assert.rejects(
        client.readResource({ uri }),
        (error: unknown) =>
          error instanceof RpcError && error.code === expected && (error.data as { uri: string }).uri === uri,
        uri,
      );
    }
    await client.close();
  });

  test(`${era} era: completion offers owners, their repositories, numbers and paths (COMP-3: from the context)`, async () => {
    await using server = createMemoryServer();
    const client = await connectClient(server, era);
    const complete = async (uri: string, name: string, value: string, known: Record<string, string> = {}) =>
      (
        await client.complete({
          ref: { type: 'ref/resource', uri },
          argument: { name, value },
          context: { arguments: known },
        })
      ).completion;
    assert.deepEqual((await complete(ISSUE, 'owner', '')).values, ['acme', 'octo-labs', 'priya']);
    assert.deepEqual((await complete(ISSUE, 'repo', '', { owner: 'acme' })).values, [
      'api-gateway',
      'design-system',
      'webapp',
    ]);
    assert.deepEqual((await complete(ISSUE, 'repo', 'w', { owner: 'acme' })).values, ['webapp']);
    const every = await complete(ISSUE, 'number', '', WEBAPP);
    assert.ok(
      every.values.length === 100 && every.hasMore === true && (every.total ?? 0) > 100,
      'COMP-4: at most 100 values',
    );
    const numbers = await complete(ISSUE, 'number', '1', WEBAPP);
    assert.ok(numbers.values.length > 10 && numbers.values.every((value) => value.startsWith('1')));
    const pulls = await complete('github://repos/{owner}/{repo}/pulls/{number}', 'number', '', WEBAPP);
    assert.ok(pulls.values.includes(String(await firstPullNumber(client))));
    assert.ok(!pulls.values.includes('1'), '#1 is an issue');
    const paths = await complete(
      'github://repos/{owner}/{repo}/contents/{+path}{?ref}',
      'path',
      'src/auth/',
      WEBAPP,
    );
    assert.deepEqual(paths.values, ['src/auth/reset.ts', 'src/auth/session.ts']);
    const prompt = await client.complete({
      ref: { type: 'ref/prompt', name: 'triage_issue' },
      argument: { name: 'repo', value: 'tel' },
      context: { arguments: { owner: 'octo-labs' } },
    });
    assert.deepEqual(prompt.completion.values, ['telemetry']);
    await client.close();
  });

  test(`${era} era: a comment from another client notifies the subscribed client (RES-5, S26-SUB-7)`, async () => {
    await using server = createMemoryServer();
    const watcher = await connectClient(server, era);
    const writer = await connectClient(server, era === 'handshake' ? 'stateless' : 'handshake');
    const uri = 'github://repos/acme/webapp/issues/7';
    const unsubscribe = await subscribe(watcher, era, uri);
    const heard = nextUpdate(watcher, uri);
    const others: string[] = [];
    watcher.on('resourceUpdated', (params) => others.push(params.uri));
    await callOk(writer, 'add_issue_comment', { ...WEBAPP, issue_number: 8, body: 'Not the watched issue' });
    await callOk(writer, 'add_issue_comment', { ...WEBAPP, issue_number: 7, body: 'A new comment' });
    assert.equal(await heard, uri);
    assert.match(textContents(await watcher.readResource({ uri })), /A new comment/);
    assert.ok(
      !others.includes('github://repos/acme/webapp/issues/8'),
      'only the subscribed issue is announced',
    );
    unsubscribe();
    await Promise.all([watcher.close(), writer.close()]);
  });

  test(`${era} era: the triage and review prompts embed the issue, the pull request and its diff`, async () => {
    await using server = createMemoryServer();
    const client = await connectClient(server, era);
    const triage = await client.getPrompt({
      name: 'triage_issue',
      arguments: { ...WEBAPP, issue_number: '3' },
    });
    const [issue, ask] = triage.messages;
    assert.ok(
      issue?.content.type === 'resource' &&
        issue.content.resource.uri === 'github://repos/acme/webapp/issues/3',
    );
    assert.ok(
      ask?.content.type === 'text' &&
        /Triage acme\/webapp#3/.test(ask.content.text) &&
        /good first issue/.test(ask.content.text),
    );
    const number = await firstPullNumber(client);
    const review = await client.getPrompt({
      name: 'review_pull_request',
      arguments: { ...WEBAPP, pullNumber: String(number) },
    });
    const uris = review.messages.flatMap((message) =>
      message.content.type === 'resource' ? [message.content.resource.uri] : [],
    );
    assert.deepEqual(uris, [
      `github://repos/acme/webapp/pulls/${number}`,
      `github://repos/acme/webapp/pulls/${number}/diff`,
    ]);
    const diff = review.messages[1]?.content;
    assert.ok(
      diff?.type === 'resource' &&
        diff.resource.mimeType === 'text/x-diff' &&
        'text' in diff.resource &&
        diff.resource.text.startsWith('diff --git'),
    );
    for (const args of [
      { ...WEBAPP, issue_number: '99999' },
      { owner: 'nobody', repo: 'x', issue_number: '1' },
      { ...WEBAPP, issue_number: 'one' },
    ]) {
      await assert.rejects(
        client.getPrompt({ name: 'triage_issue', arguments: args }),
        (error: unknown) => error instanceof RpcError && error.code === -32602,
        JSON.stringify(args),
      );
    }
    await client.close();
  });
}
