// `mcpwire replay <transcript> --check`: the recorded client side against a live server. Unchanged
// servers pass (exit 0) in both eras, over stdio and HTTP; a changed answer (an edited recording, or
// a fixture server with a regression) is a diff naming the path (exit 1); no server is exit 3.

import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { MessageEntry } from '../src/wire/transcript.ts';
import { freePort } from '../../../test/support/free-port.ts';
import { FIXTURES, MCPWIRE, OUR_EVERYTHING, runCli } from './support/cli-process.ts';
import { startOurHttpServer } from './support/http-servers.ts';
import { recordSession, tempDirectory } from './fixtures/replay/replay-processes.ts';

const OURS = ['--', ...OUR_EVERYTHING];
const ADDER = [...MCPWIRE, 'serve', join(FIXTURES, 'replay', 'adder-server.ts')];
const ADDER_OFF_BY_ONE = [...MCPWIRE, 'serve', join(FIXTURES, 'replay', 'adder-off-by-one.ts')];

/** Rewrites the message entries of a transcript file in place (the header and other entries stay). */
async function editTranscript(file: string, edit: (entry: MessageEntry) => void): Promise<void> {
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
  const edited = lines.map((line) => {
    const entry = JSON.parse(line) as { type: string };
    if (entry.type === 'message') edit(entry as MessageEntry);
    return JSON.stringify(entry);
  });
  await writeFile(file, `${edited.join('\n')}\n`);
}

/** Records `mcpwire call <tool> <pairs>` against `server` (a command) into `file`. */
async function recordCall(file: string, server: readonly string[], extra: string[] = []): Promise<void> {
  const recorded = await runCli([
    'call',
    ...extra,
    '--record',
    file,
    'add_numbers',
    'a=2',
    'b=3',
    '--',
    ...server,
  ]);
  assert.equal(recorded.code, 0, recorded.stderr);
}

describe('replay --check', { concurrency: 2 }, () => {
  for (const era of ['handshake', 'stateless'] as const) {
    test(`${era} era: an unchanged server passes, every response the same (exit 0)`, async () => {
      await using dir = await tempDirectory();
      const file = dir.file('call.jsonl');
      await recordCall(file, OUR_EVERYTHING, ['--era', era]);
      const checked = await runCli(['replay', file, '--check', ...OURS]);
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);
      const first = era === 'handshake' ? 'initialize' : 'server/discover';
      assert.equal(
        checked.stdout.replace(/^Replaying .*\n/, ''),
        `  same     ${first}\n  same     tools/list\n  same     tools/call add_numbers\n\n` +
          '3 responses compared with the recording: 3 the same, 0 changed\n',
      );
      assert.match(checked.stdout, /^Replaying .*call\.jsonl against .*main\.ts serve everything\n/);
    });
  }

  test('an edited recorded result is a diff path by path (exit 1); --ignore those paths and it passes', async () => {
    await using dir = await tempDirectory();
    const file = dir.file('call.jsonl');
    await recordCall(file, OUR_EVERYTHING, ['--era', 'handshake']);
    await editTranscript(file, (entry) => {
      const result = (entry.message as { result?: { structuredContent?: { sum: number } } }).result;
      if (result?.structuredContent === undefined) return;
      result.structuredContent.sum = 7;
      (result as { content: unknown }).content = [{ type: 'text', text: '7' }];
    });
    const checked = await runCli(['replay', file, '--check', ...OURS]);
    assert.equal(checked.code, 1, checked.stderr);
    assert.match(
      checked.stdout,
      /\n {2}changed {2}tools\/call add_numbers \(request 3\)\n {6}\$\.result\.content\[0\]\.text\n {8}recorded: "7"\n {8}received: "5"\n {6}\$\.result\.structuredContent\.sum\n {8}recorded: 7\n {8}received: 5\n/,
    );
    assert.match(checked.stdout, /\n3 responses compared with the recording: 2 the same, 1 changed\n$/);
    const ignoring = await runCli([
      'replay',
      file,
      '--check',
      '--ignore',
      '$.result.content[*].text',
      '--ignore',
      '$..sum',
      ...OURS,
    ]);
    assert.equal(ignoring.code, 0, ignoring.stdout + ignoring.stderr);
  });

  test('a server that answers one tool differently: that one response changed (exit 1)', async () => {
    await using dir = await tempDirectory();
    const file = dir.file('adder.jsonl');
    await recordCall(file, ADDER);
    const same = await runCli(['replay', file, '--check', '--', ...ADDER]);
    assert.equal(same.code, 0, same.stdout + same.stderr);
    const changed = await runCli(['replay', file, '--check', '--', ...ADDER_OFF_BY_ONE]);
    assert.equal(changed.code, 1, changed.stderr);
    assert.deepEqual(changed.stdout.match(/^ {2}\w+ +\S+.*$/gm), [
      '  same     server/discover',
      '  same     tools/list',
      '  changed  tools/call add_numbers (request 3)',
    ]);
    assert.match(changed.stdout, /\$\.result\.content\[0\]\.text\n {8}recorded: "5"\n {8}received: "6"\n/);
  });

  test("the server's sampling request is answered with the recorded answer", async () => {
    await using dir = await tempDirectory();
    const file = dir.file('sampling.jsonl');
    const sampled = 'a recorded completion';
    await recordSession(
      file,
      {
        era: 'handshake',
        handlers: {
          sampling: () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: sampled } }),
        },
      },
      async (client) => {
        const result = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Say hi' } });
        assert.deepEqual(result.content, [{ type: 'text', text: `LLM response: ${sampled}` }]);
      },
    );
    const checked = await runCli(['replay', file, '--check', ...OURS]);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    assert.match(checked.stdout, /\n {2}same {5}tools\/call test_sampling\n/);
    // Proof that the recorded answer is what the live server got: change it and the tool result changes.
    await editTranscript(file, (entry) => {
      const result = (entry.message as { result?: { model?: string; content?: { text: string } } }).result;
      if (entry.from === 'client' && result?.model === 'm') result.content!.text = 'an edited completion';
    });
    const edited = await runCli(['replay', file, '--check', ...OURS]);
    assert.equal(edited.code, 1, edited.stderr);
    assert.match(
      edited.stdout,
      /recorded: "LLM response: a recorded completion"\n {8}received: "LLM response: an edited completion"/,
    );
  });

  test('over Streamable HTTP: a recording made against a URL checks against it (exit 0)', async () => {
    await using dir = await tempDirectory();
    await using server = await startOurHttpServer();
    const file = dir.file('http.jsonl');
    const recorded = await runCli([
      'call',
      '--era',
      'stateless',
      '--record',
      file,
      server.url,
      'add_numbers',
      'a=2',
      'b=3',
    ]);
    assert.equal(recorded.code, 0, recorded.stderr);
    const checked = await runCli(['replay', file, '--check', server.url]);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    assert.match(checked.stdout, /3 responses compared with the recording: 3 the same, 0 changed\n$/);
  });

  test('a server that cannot be reached or started is exit 3, saying which and why', async () => {
    await using dir = await tempDirectory();
    const file = dir.file('adder.jsonl');
    await recordCall(file, ADDER);
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const refused = await runCli(['replay', file, '--check', url]);
    assert.equal(refused.code, 3, refused.stdout + refused.stderr);
    assert.match(
      refused.stderr,
      new RegExp(`^mcpwire: replay --check against ${url.replace(/\./g, '\\.')}: `),
    );
    const missing = await runCli(['replay', file, '--check', '--', join(dir.file('no-such-server'))]);
    assert.equal(missing.code, 3, missing.stderr);
    assert.match(
      missing.stderr,
      /Cannot start server process .*no-such-server.*; check the command and your PATH\n$/,
    );
    const exits = await runCli(['replay', file, '--check', '--', process.execPath, '-e', 'process.exit(4)']);
    assert.equal(exits.code, 3, exits.stderr);
    assert.match(exits.stderr, /exited with code 4/);
  });
});
