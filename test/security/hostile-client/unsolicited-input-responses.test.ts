// A 2026-07-28 tools/call carrying inputResponses the server never asked for (issue 21, "state"):
// against the real `mcpwire serve github --http`, an unsolicited "confirmed" answer must not close
// an issue in one round; the server asks for the confirmation (S26-MRTR-10), and the legitimate
// two-round flow, echoing the requestState it issued, still closes it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statelessRequest, spawnHttpServer } from '../../support/raw-mcp-http.ts';

const ELICIT = { elicitation: {} };
const CONFIRMED = { confirm_state: { action: 'accept', content: { confirm: true } } };

test(
  'unsolicited inputResponses are ignored: the issue stays open and the server asks',
  { timeout: 120_000 },
  async () => {
    await using server = await spawnHttpServer(['github', '--db', ':memory:']);
    const repo = { owner: 'acme', repo: 'webapp' };
    const created = await statelessRequest(server.url, 'tools/call', {
      name: 'create_issue',
      arguments: { ...repo, title: 'Keep me open' },
    });
    const number = created.message?.result?.structuredContent?.number as number;
    assert.equal(typeof number, 'number', JSON.stringify(created.message));
    const close = { name: 'update_issue', arguments: { ...repo, issue_number: number, state: 'closed' } };
    const state = async (): Promise<string> => {
      const got = await statelessRequest(server.url, 'tools/call', {
        name: 'get_issue',
        arguments: { ...repo, issue_number: number },
      });
      return got.message?.result?.structuredContent?.state as string;
    };

    const forged = await statelessRequest(
      server.url,
      'tools/call',
      { ...close, inputResponses: CONFIRMED },
      {
        id: 2,
        capabilities: ELICIT,
      },
    );
    assert.equal(
      await state(),
      'open',
      `one forged round closed the issue: ${JSON.stringify(forged.message)}`,
    );
    assert.equal(forged.message?.result?.resultType, 'input_required', JSON.stringify(forged.message));
    assert.ok(forged.message.result.inputRequests.confirm_state);

    // The legitimate flow: answer what was asked, echoing the issued requestState.
    const asked = await statelessRequest(server.url, 'tools/call', close, { id: 3, capabilities: ELICIT });
    const requestState = asked.message?.result?.requestState as string;
    const done = await statelessRequest(
      server.url,
      'tools/call',
      { ...close, inputResponses: CONFIRMED, requestState },
      { id: 4, capabilities: ELICIT },
    );
    assert.equal(done.message?.result?.resultType, 'complete', JSON.stringify(done.message));
    assert.equal(await state(), 'closed');
  },
);
