// Every handshake-era revision negotiated over real stdio: our Client pinned to each of 2024-11-05,
// 2025-03-26, 2025-06-18 and 2025-11-25 against our server and against the official server-everything.
// Each conversation is checked against the official schema of the pinned revision.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { Client } from 'mcpwire/client';
import type { Progress } from 'mcpwire/client';
import { hasFeature, HANDSHAKE_VERSIONS } from 'mcpwire';
import type { ElicitRequestParams, ElicitResult } from 'mcpwire';
import { StdioClientTransport } from 'mcpwire/stdio';
import { tapChannel } from 'mcpwire';
import { CHILD_STARTUP_WAIT } from '../support/node-options.ts';
import { ClientWireCheck } from './client-wire-check.ts';
import { onlyText, SAMPLED_TEXT } from './our-everything-expectations.ts';
import {
  OFFICIAL_EVERYTHING_SERVER,
  OUR_EVERYTHING_SERVER,
  StderrTail,
  type StdioCommand,
} from './stdio-peers.ts';

const ROOTS = [{ uri: 'file:///work/interop-project', name: 'interop-project' }];

/** The user's answers, by form field; each form gets the fields it asks for. */
const FORM_ANSWERS: Record<string, string> = { username: 'ada', email: 'ada@example.com', name: 'Ada' };

function answerFormFields(params: ElicitRequestParams): ElicitResult {
  if (params.mode === 'url') return { action: 'decline' };
  const asked = Object.keys(params.requestedSchema.properties);
  return {
    action: 'accept',
    content: Object.fromEntries(
      asked.filter((field) => field in FORM_ANSWERS).map((field) => [field, FORM_ANSWERS[field] ?? '']),
    ),
  };
}

/** A client pinned to `version`, connected over a tapped stdio channel; `run` gets it, then it is closed. */
async function withPinnedClient(
  server: StdioCommand & { shutdownTimeoutMs?: number },
  version: string,
  run: (client: Client, wire: ClientWireCheck, stderr: StderrTail) => Promise<void>,
): Promise<void> {
  const stderr = new StderrTail();
  const errors: Error[] = [];
  const client = new Client(
    { name: `interop-pinned-${version}`, version: '0.1.0' },
    {
      protocolVersion: version,
      ...CHILD_STARTUP_WAIT,
      handlers: {
        sampling: () => ({
          role: 'assistant',
          model: 'interop-fake-model',
          content: { type: 'text', text: SAMPLED_TEXT },
        }),
        elicitation: (params) => answerFormFields(params),
        roots: () => ROOTS,
      },
      onError: (error) => errors.push(error),
    },
  );
  const wire = new ClientWireCheck(() => client.protocolVersion);
  const channel = await new StdioClientTransport({ ...server, stderr: stderr.write }).connect();
  try {
    await client.connect(tapChannel(channel, wire.observer));
    assert.equal(client.era, 'handshake');
    assert.equal(client.protocolVersion, version, 'the pinned revision was negotiated');
    await run(client, wire, stderr);
    // ELIC-1: the capability exists from 2025-06-18; declaring it earlier invites requests the revision cannot carry.
    const declared = Object.keys((wire.initializeParams?.capabilities ?? {}) as object).sort();
    const expected = [
      'roots',
      'sampling',
      ...(hasFeature(version, 'elicitation') ? ['elicitation'] : []),
    ].sort();
    assert.deepEqual(declared, expected, `capabilities declared in the ${version} initialize request`);
    assert.deepEqual(
      errors.map((error) => error.message),
      [],
      'our client reported no local error',
    );
  } finally {
    await client.close();
    // Idempotent; releases the process even if the handshake never got as far as the client owning it.
    await channel.close();
  }
}

describe(
  'our Client pinned to each handshake-era revision, against our server',
  { concurrency: true },
  () => {
    for (const version of HANDSHAKE_VERSIONS) {
      it(`negotiates ${version}; every message both ways is valid in ${version}`, () =>
        withPinnedClient(OUR_EVERYTHING_SERVER, version, async (client, wire, stderr) => {
          assert.equal(
            onlyText(await client.callTool({ name: 'echo', arguments: { message: version } })),
            version,
          );
          assert.equal(
            onlyText(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } })),
            `LLM response: ${SAMPLED_TEXT}`,
          );
          assert.match(
            onlyText(await client.callTool({ name: 'test_list_roots', arguments: {} })),
            /file:\/\/\/work\/interop-project/,
          );

          const elicited = await client.callTool({
            name: 'test_elicitation',
            arguments: { message: 'Who?' },
          });
          if (hasFeature(version, 'elicitation')) {
            assert.equal(
              onlyText(elicited),
              'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
            );
          } else {
            // The server cannot ask: a tool failure naming the revision, not a request the client cannot take.
            assert.equal(elicited.isError, true);
            assert.match(onlyText(elicited), new RegExp(`does not exist in protocol revision ${version}`));
          }

          const audio = await client.callTool({ name: 'test_audio_content', arguments: {} });
          const links = await client.callTool({ name: 'test_resource_links', arguments: {} });

          const progress: Progress[] = [];
          await client.callTool(
            { name: 'test_tool_with_progress', arguments: {} },
            { onProgress: (update) => progress.push(update) },
          );
          assert.deepEqual(
            progress.map((update) => update.progress),
            [0, 50, 100],
          );

          const prompt = await client.getPrompt({
            name: 'test_prompt_with_arguments',
            arguments: { arg1: 'a', arg2: 'b' },
          });
          assert.deepEqual(prompt.messages, [
            { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" } },
          ]);
          const [contents] = (await client.readResource({ uri: 'test://static-text' })).contents;
          assert.ok(contents && 'text' in contents);
          assert.equal(contents.text, 'This is the content of the static text resource.');
          const completion = await client.complete({
            ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
            argument: { name: 'arg1', value: 'te' },
          });
          assert.deepEqual(completion.completion.values, ['test', 'testing', 'test-value']);

          assert.ok(wire.checkedCount > 0);
          // Both sides are ours: every failure, either way, is a bug.
          assert.deepEqual([...wire.clientFailures, ...wire.serverFailures], [], `server stderr:\n${stderr}`);

          // Content types a revision lacks reach its clients as text stand-ins (adaptContentForRevision).
          assert.equal(
            audio.content[0]?.type,
            hasFeature(version, 'audioContent') ? 'audio' : 'text',
            `audio block in ${version}`,
          );
          assert.equal(
            links.content.some((block) => block.type === 'resource_link'),
            hasFeature(version, 'resourceLink'),
            `resource_link blocks in ${version}`,
          );
        }));
    }
  },
);

describe(
  'our Client pinned to each handshake-era revision, against server-everything',
  { concurrency: true },
  () => {
    // server-everything does not exit when its stdin closes; it ends at the SIGTERM that follows.
    const server = { ...OFFICIAL_EVERYTHING_SERVER, shutdownTimeoutMs: 500 };
    for (const version of HANDSHAKE_VERSIONS) {
      it(`negotiates ${version}; every message our client sent is valid in ${version}`, (t) =>
        withPinnedClient(server, version, async (client, wire, stderr) => {
          assert.equal(
            onlyText(await client.callTool({ name: 'echo', arguments: { message: version } })),
            `Echo: ${version}`,
          );
          assert.equal(
            onlyText(await client.callTool({ name: 'get-sum', arguments: { a: 40, b: 2 } })),
            'The sum of 40 and 2 is 42.',
          );
          const sampled = await client.callTool({
            name: 'trigger-sampling-request',
            arguments: { prompt: 'hi' },
          });
          assert.ok(onlyText(sampled).includes(SAMPLED_TEXT));
          assert.match(
            onlyText(await client.callTool({ name: 'get-roots-list', arguments: {} })),
            /URI: file:\/\/\/work\/interop-project/,
          );

          const tools = (await client.listAllTools()).map((tool) => tool.name);
          // server-everything registers its elicitation tool only for clients that declare elicitation.
          assert.equal(
            tools.includes('trigger-elicitation-request'),
            hasFeature(version, 'elicitation'),
            `trigger-elicitation-request listed in ${version}`,
          );
          if (tools.includes('trigger-elicitation-request')) {
            const elicited = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
            assert.equal(elicited.isError, undefined, JSON.stringify(elicited.content));
            assert.equal(
              elicited.content[0]?.type === 'text' && elicited.content[0].text,
              '✅ User provided the requested information!',
            );
          }

          const prompt = await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Oslo' } });
          assert.deepEqual(prompt.messages, [
            { role: 'user', content: { type: 'text', text: "What's weather in Oslo?" } },
          ]);
          const [contents] = (await client.readResource({ uri: 'demo://resource/dynamic/text/1' })).contents;
          assert.ok(contents && 'text' in contents);
          assert.match(contents.text, /^Resource 1: /);

          for (const failure of wire.serverFailures)
            t.diagnostic(`server-everything at ${version}: ${failure}`);
          assert.ok(wire.checkedCount > 0);
          assert.deepEqual(wire.clientFailures, [], `server stderr:\n${stderr}`);
        }));
    }
  },
);
