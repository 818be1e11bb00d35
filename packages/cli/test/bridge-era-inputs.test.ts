// `mcpwire bridge --http 0 -- mcpwire serve everything --era handshake`, raw 2026-07-28 rounds: what
// the child asks for input becomes the round's `inputRequests`, all of what it asks together in one
// round, under the key the child names (`_meta["dev.mcpwire/inputKey"]`) when it names one; the
// child's tool sees each request's client capabilities (`_meta["dev.mcpwire/clientCapabilities"]`).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BridgeProcess } from './support/bridge-process.ts';
import { MCPWIRE_ARGV } from '../../../test/support/cli-child.ts';
import { statelessRequest } from '../../../test/support/raw-mcp-http.ts';

/** `mcpwire serve everything` restricted to the handshake era: a 2025-only stdio server. */
const HANDSHAKE_EVERYTHING = [...MCPWIRE_ARGV, 'serve', 'everything', '--era', 'handshake'];

const ALL_INPUTS = { elicitation: {}, sampling: {}, roots: {} };

describe('bridge --http: input rounds of a handshake-era child', { concurrency: 1 }, () => {
  test('a tool that asks for three inputs at once gets them in one round, and its answers reach it', async () => {
    const { bridge, url } = await BridgeProcess.start([], HANDSHAKE_EVERYTHING);
    await using _bridge = bridge;
    const params = { name: 'test_input_required_result_multiple_inputs', arguments: {} };
    // The child starts on the first request; one call before, so the rule is seen on a warm child too.
    for (let attempt = 1; attempt <= 2; attempt++) {
      const first = await statelessRequest(url, 'tools/call', params, {
        capabilities: ALL_INPUTS,
        id: attempt,
      });
      assert.equal(first.status, 200, JSON.stringify(first.message));
      const { resultType, inputRequests, requestState } = first.message.result;
      assert.equal(resultType, 'input_required');
      const methods = Object.values(inputRequests as Record<string, { method: string }>)
        .map((input) => input.method)
        .sort();
      assert.deepEqual(
        methods,
        ['elicitation/create', 'roots/list', 'sampling/createMessage'],
        `round ${attempt}`,
      );
      const answers: Record<string, unknown> = {};
      for (const [key, input] of Object.entries(inputRequests as Record<string, { method: string }>)) {
        answers[key] =
          input.method === 'elicitation/create'
            ? { action: 'accept', content: { name: 'Ada' } }
            : input.method === 'sampling/createMessage'
              ? { role: 'assistant', content: { type: 'text', text: 'Hi there' }, model: 'test-model' }
              : { roots: [{ uri: 'file:///tmp/project' }] };
      }
      const retry = { ...params, inputResponses: answers, requestState };
      const second = await statelessRequest(url, 'tools/call', retry, {
        capabilities: ALL_INPUTS,
        id: 10 + attempt,
      });
      assert.equal(
        second.message.result?.content?.[0]?.text,
        'Name: Ada; greeting: Hi there; roots: file:///tmp/project',
        JSON.stringify(second.message),
      );
    }
  });

  test("an input request's key is the one the child names; each call's answer reaches that call", async () => {
    const { bridge, url } = await BridgeProcess.start([], HANDSHAKE_EVERYTHING);
    await using _bridge = bridge;
    const capabilities = { elicitation: {} };
    const params = { name: 'test_input_required_result_elicitation', arguments: {} };
    // Two calls of the same tool, both parked at their first round under the same key.
    const rounds = [];
    for (const id of [1, 2]) {
      const reply = await statelessRequest(url, 'tools/call', params, { capabilities, id });
      assert.equal(reply.status, 200, JSON.stringify(reply.message));
      const { resultType, inputRequests, requestState } = reply.message.result;
      assert.equal(resultType, 'input_required');
      assert.deepEqual(Object.keys(inputRequests), ['user_name']);
      assert.equal(inputRequests.user_name.method, 'elicitation/create');
      rounds.push(requestState as string);
    }
    // Answered in the other order: the sealed requestState, not the key, says which call goes on.
    for (const [index, name] of [
      [1, 'Bo'],
      [0, 'Ada'],
    ] as const) {
      const retry = {
        ...params,
        inputResponses: { user_name: { action: 'accept', content: { name } } },
        requestState: rounds[index],
      };
      const reply = await statelessRequest(url, 'tools/call', retry, { capabilities, id: 10 + index });
      assert.equal(
        reply.message.result?.content?.[0]?.text,
        `Hello, ${name}!`,
        JSON.stringify(reply.message),
      );
    }
  });

  test("the child's tool sees the capabilities of the client whose call it serves", async () => {
    const { bridge, url } = await BridgeProcess.start([], HANDSHAKE_EVERYTHING);
    await using _bridge = bridge;
    const params = { name: 'test_input_required_result_capabilities', arguments: {} };
    // A client with sampling only: the tool asks for sampling only (no elicitation, no roots).
    const capabilities = { sampling: {} };
    const first = await statelessRequest(url, 'tools/call', params, { capabilities });
    assert.equal(first.status, 200, JSON.stringify(first.message));
    const { resultType, inputRequests, requestState } = first.message.result ?? {};
    assert.equal(resultType, 'input_required', JSON.stringify(first.message));
    assert.deepEqual(Object.keys(inputRequests), ['capital_question']);
    assert.equal(inputRequests.capital_question.method, 'sampling/createMessage');
    const answer = { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model' };
    const retry = { ...params, inputResponses: { capital_question: answer }, requestState };
    const second = await statelessRequest(url, 'tools/call', retry, { capabilities, id: 2 });
    assert.equal(second.message.result?.content?.[0]?.text, 'Answers: Paris', JSON.stringify(second.message));
    // A client with none: the same tool asks nothing, on the same child.
    const none = await statelessRequest(url, 'tools/call', params, { capabilities: {}, id: 3 });
    assert.equal(
      none.message.result?.content?.[0]?.text,
      'The client declared no input capability.',
      JSON.stringify(none.message),
    );
  });
});
