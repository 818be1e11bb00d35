// Asking the user and the model, in both eras: update_issue's close/reopen confirmation through
// elicitation (ELIC-3/4; S26-MRTR-2 in 2026-07-28), its refusal as a tool error when the client
// cannot elicit (S26-MRTR-3, -32021 never reaches the caller), and summarize_issue through sampling.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ElicitRequestParams, ElicitResult } from 'mcpwire';
import { call, callOk, connectClient, createMemoryServer, ERAS, textOf } from './support/peers.ts';

const WEBAPP = { owner: 'acme', repo: 'webapp' };

/** A client whose user answers every elicitation with `answer`, recording the questions. */
function answering(answer: ElicitResult, asked: ElicitRequestParams[]) {
  return {
    handlers: {
      elicitation: (params: ElicitRequestParams): ElicitResult => {
        asked.push(params);
        return answer;
      },
    },
  };
}

async function openIssue(server: ReturnType<typeof createMemoryServer>): Promise<number> {
  const writer = await connectClient(server, 'handshake');
  const { number } = await callOk<{ number: number }>(writer, 'create_issue', {
    ...WEBAPP,
    title: 'To be closed',
  });
  await writer.close();
  return number;
}

for (const era of ERAS) {
  test(`${era} era: closing asks for confirmation; confirmed, the issue closes`, async () => {
    await using server = createMemoryServer();
    const number = await openIssue(server);
    const asked: ElicitRequestParams[] = [];
    const client = await connectClient(
      server,
      era,
      answering({ action: 'accept', content: { confirm: true } }, asked),
    );
    const result = await callOk<{ updated: boolean; issue: { state: string; state_reason: string } }>(
      client,
      'update_issue',
      {
        ...WEBAPP,
        issue_number: number,
        state: 'closed',
        state_reason: 'not_planned',
      },
    );
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.message, new RegExp(`Close acme/webapp#${number} "To be closed"`));
    assert.deepEqual(
      [result.updated, result.issue.state, result.issue.state_reason],
      [true, 'closed', 'not_planned'],
    );
    const reopened = await callOk<{ issue: { state: string; state_reason: string } }>(
      client,
      'update_issue',
      { ...WEBAPP, issue_number: number, state: 'open' },
    );
    assert.deepEqual([reopened.issue.state, reopened.issue.state_reason], ['open', 'reopened']);
    assert.match(asked[1]!.message, /^Reopen/);
    await client.close();
  });

  test(`${era} era: declined or unticked, nothing changes`, async () => {
    await using server = createMemoryServer();
    const number = await openIssue(server);
    for (const answer of [
      { action: 'decline' },
      { action: 'accept', content: { confirm: false } },
    ] as ElicitResult[]) {
      const client = await connectClient(server, era, answering(answer, []));
      const result = await callOk<{ updated: boolean; message: string; issue: { state: string } }>(
        client,
        'update_issue',
        {
          ...WEBAPP,
          issue_number: number,
          state: 'closed',
          title: 'Not renamed either',
        },
      );
      assert.equal(result.updated, false);
      assert.match(result.message, /^Not changed/);
      const issue = await callOk<{ state: string; title: string }>(client, 'get_issue', {
        ...WEBAPP,
        issue_number: number,
      });
      assert.deepEqual([issue.state, issue.title], ['open', 'To be closed']);
      await client.close();
    }
  });

  test(`${era} era: a client without elicitation gets a tool error naming the missing capability`, async () => {
    await using server = createMemoryServer();
    const number = await openIssue(server);
    const client = await connectClient(server, era);
    const result = await call(client, 'update_issue', { ...WEBAPP, issue_number: number, state: 'closed' });
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /closing acme\/webapp#\d+ needs the user's confirmation.*elicitation capability/,
    );
    const issue = await callOk<{ state: string }>(client, 'get_issue', { ...WEBAPP, issue_number: number });
    assert.equal(issue.state, 'open');
    // Changes other than the state need no confirmation.
    const renamed = await callOk<{ updated: boolean }>(client, 'update_issue', {
      ...WEBAPP,
      issue_number: number,
      title: 'Renamed',
    });
    assert.equal(renamed.updated, true);
    await client.close();
  });

  test(`${era} era: a client that declares only URL-mode elicitation is refused the same way (ELIC-2)`, async () => {
    await using server = createMemoryServer();
    const number = await openIssue(server);
    const client = await connectClient(server, era, {
      ...answering({ action: 'accept' }, []),
      elicitationModes: ['url'],
    });
    const result = await call(client, 'update_issue', { ...WEBAPP, issue_number: number, state: 'closed' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /needs the user's confirmation/);
    await client.close();
  });

  test(`${era} era: summarize_issue asks the client's model through sampling`, async () => {
    await using server = createMemoryServer();
    const prompts: string[] = [];
    const client = await connectClient(server, era, {
      handlers: {
        sampling: (params) => {
          prompts.push(params.messages.map((message) => JSON.stringify(message.content)).join('\n'));
          return {
            role: 'assistant',
            model: 'test-model',
            content: { type: 'text', text: 'Login fails after reset; a fix is in review.' },
          };
        },
      },
    });
    const result = await callOk<{ issue: string; summary: string; model: string }>(
      client,
      'summarize_issue',
      { ...WEBAPP, issue_number: 1 },
    );
    assert.deepEqual(result, {
      issue: 'acme/webapp#1',
      summary: 'Login fails after reset; a fix is in review.',
      model: 'test-model',
    });
    assert.equal(prompts.length, 1);
    const title = (await callOk<{ title: string }>(client, 'get_issue', { ...WEBAPP, issue_number: 1 }))
      .title;
    assert.ok(prompts[0]!.includes(title), 'the issue is in the sampling request');
    await client.close();
  });

  test(`${era} era: summarize_issue without sampling is a tool error`, async () => {
    await using server = createMemoryServer();
    const client = await connectClient(server, era);
    const result = await call(client, 'summarize_issue', { ...WEBAPP, issue_number: 1 });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /needs the client's sampling capability/);
    await client.close();
  });
}
