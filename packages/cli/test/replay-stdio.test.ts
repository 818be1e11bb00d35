// `mcpwire replay <transcript>` as a stdio server: recordings of our everything server (made with
// --record, in both eras) answer our client as the live server did; a raw line client sees the
// matching rules, the documented errors, progress under its own token and nothing but JSON on stdout.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import type { Progress } from 'mcpwire/client';
import { MCPWIRE, OUR_EVERYTHING, runCli } from './support/cli-process.ts';
import { RawStdioClient, recordSession, tempDirectory } from './fixtures/replay/replay-processes.ts';

const OURS = ['--', ...OUR_EVERYTHING];
const INITIALIZE = {
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-test', version: '1' } },
};

describe('the stdio mock answers our client as the live server did', { concurrency: 2 }, () => {
  for (const era of ['handshake', 'stateless'] as const) {
    test(`${era} era: list and call --json print the same from the recording as from the live server`, async () => {
      await using dir = await tempDirectory();
      const listFile = dir.file('list.jsonl');
      const live = await runCli(['list', '--era', era, '--record', listFile, ...OURS]);
      assert.equal(live.code, 0, live.stderr);
      assert.match(live.stdout, /^Tools \(\d+\)\necho /);
      const replayed = await runCli(['list', '--era', era, '--', ...MCPWIRE, 'replay', listFile]);
      assert.equal(replayed.code, 0, replayed.stderr);
      assert.equal(replayed.stdout, live.stdout);

      const callFile = dir.file('call.jsonl');
      const call = ['call', '--era', era, 'add_numbers', 'a=2', 'b=3', '--json'];
      const liveCall = await runCli([...call, '--record', callFile, ...OURS]);
      assert.equal(liveCall.code, 0, liveCall.stderr);
      const replayedCall = await runCli([...call, '--', ...MCPWIRE, 'replay', callFile]);
      assert.equal(replayedCall.code, 0, replayedCall.stderr);
      assert.deepEqual(JSON.parse(replayedCall.stdout), JSON.parse(liveCall.stdout));
      assert.deepEqual(
        (JSON.parse(replayedCall.stdout) as { structuredContent: unknown }).structuredContent,
        {
          sum: 5,
        },
      );
    });
  }
});

describe('the stdio mock line by line', { concurrency: 2 }, () => {
  test('initialize gets the recorded negotiation; unmatched requests get -32601 or -32602 and it keeps serving', async () => {
    await using dir = await tempDirectory();
    const file = dir.file('call.jsonl');
    const recorded = await runCli([
      'call',
      '--era',
      'handshake',
      '--record',
      file,
      'add_numbers',
      'a=2',
      'b=3',
      ...OURS,
    ]);
    assert.equal(recorded.code, 0, recorded.stderr);
    await using mock = new RawStdioClient(file);
    // LIFE-8: the answer is the version the recording negotiated, whatever this client asked.
    const init = await mock.request({ id: 1, ...INITIALIZE });
    assert.ok('result' in init.response, JSON.stringify(init.response));
    assert.equal(init.response.result.protocolVersion, '2025-11-25');
    assert.deepEqual((init.response.result.serverInfo as { name: string }).name, 'mcpwire-everything');
    mock.send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    // A tool call whose params were never recorded falls back to the unused recorded call of that tool.
    const fallback = await mock.request({
      id: 2,
      method: 'tools/call',
      params: { name: 'add_numbers', arguments: { a: 40, b: 2 } },
    });
    assert.deepEqual(fallback.response, {
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } },
    });
    // BASE-9: a method never recorded is -32601; a recorded one with no match left is -32602 naming the closest.
    const unknown = await mock.request({ id: 3, method: 'prompts/list' });
    assert.ok('error' in unknown.response);
    assert.equal(unknown.response.error.code, -32601);
    assert.match(
      unknown.response.error.message,
      /^Method not found: the recording has no "prompts\/list" request \(it has initialize, tools\/list, tools\/call\)$/,
    );
    const echo = await mock.request({
      id: 4,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hi' } },
    });
    assert.ok('error' in echo.response);
    assert.equal(echo.response.error.code, -32602);
    assert.match(
      echo.response.error.message,
      /^Invalid params: no recorded tools\/call echo request matched these params; the closest recorded one is tools\/call add_numbers \{"name":"add_numbers","arguments":\{"a":2,"b":3\}\}$/,
    );
    // The same params as recorded are answered again, under the new (string) id; ping is always answered (PING-1).
    const again = await mock.request({
      id: 'five',
      method: 'tools/call',
      params: { arguments: { b: 3, a: 2 }, name: 'add_numbers' },
    });
    assert.deepEqual(again.response, { ...fallback.response, id: 'five' });
    assert.deepEqual((await mock.request({ id: 6, method: 'ping' })).response, {
      jsonrpc: '2.0',
      id: 6,
      result: {},
    });
    // Nothing but responses to our requests came back (no answer to the notification).
    assert.deepEqual(
      mock.received.map((message) => ('id' in message ? message.id : 'notification')),
      [1, 2, 3, 4, 'five', 6],
    );
    // STDIO-2 / LIFE-13: it exits, cleanly, once stdin closes.
    assert.equal(await mock.close(), 0);
  });

  test('recorded progress is replayed under the new request progress token, and only for a request that gave one', async () => {
    await using dir = await tempDirectory();
    const file = dir.file('progress.jsonl');
    const seen: Progress[] = [];
    await recordSession(file, { era: 'handshake' }, async (client) => {
      await client.callTool(
        { name: 'test_tool_with_progress', arguments: {} },
        { onProgress: (update) => seen.push(update) },
      );
    });
    assert.ok(seen.length > 0, 'the live server reported progress');
    const transcript = await readFile(file, 'utf8');
    const recordedTokens = [
      ...transcript.matchAll(/"method":"notifications\/progress","params":\{"progressToken":("[^"]*"|\d+)/g),
    ];
    assert.equal(recordedTokens.length, seen.length);
    await using mock = new RawStdioClient(file);
    await mock.request({ id: 1, ...INITIALIZE });
    const withToken = await mock.request({
      id: 2,
      method: 'tools/call',
      params: { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'replayed-token' } },
    });
    assert.ok('result' in withToken.response);
    // PROG-2: the notifications come before the response and name the token of this request.
    assert.deepEqual(
      withToken.before.map((message) =>
        'method' in message ? [message.method, message.params?.progressToken] : [],
      ),
      seen.map(() => ['notifications/progress', 'replayed-token']),
    );
    assert.deepEqual(
      withToken.before.map((message) => ('method' in message ? message.params?.progress : undefined)),
      seen.map((update) => update.progress),
    );
    // PROG-1: no token, no progress (the same params otherwise: the recorded answer is reused).
    const without = await mock.request({
      id: 3,
      method: 'tools/call',
      params: { name: 'test_tool_with_progress', arguments: {} },
    });
    assert.deepEqual(without.before, []);
    assert.deepEqual(without.response, { ...withToken.response, id: 3 });
  });

  test('usage errors exit 2 and say what to do: a missing file, a file that is no transcript, options that need --check', async () => {
    await using dir = await tempDirectory();
    const missing = await runCli(['replay', dir.file('none.jsonl')]);
    assert.equal(missing.code, 2);
    assert.match(
      missing.stderr,
      /^mcpwire: cannot read the transcript .*none\.jsonl: no such file; record one with --record <file\.jsonl> or mcpwire tap\n$/,
    );
    const notTranscript = await runCli(['replay', new URL(import.meta.url).pathname]);
    assert.equal(notTranscript.code, 2);
    assert.match(notTranscript.stderr, /:1: not JSON/);
    const cases: Array<[string[], RegExp]> = [
      [['--ignore', '$.x'], /^mcpwire: --ignore applies with --check \(see "mcpwire replay --help"\)\n$/],
      [['--port', '3000'], /^mcpwire: --port applies with --http/],
      [
        ['--check'],
        /^mcpwire: --check needs the live server: a URL, a host config name, or "--" and the command that starts it/,
      ],
      [
        ['--check', '--http', '--', 'x'],
        /^mcpwire: --http and --port serve the mock; --check runs against a live server/,
      ],
      [
        ['http://127.0.0.1:1/mcp'],
        /^mcpwire: "http:\/\/127\.0\.0\.1:1\/mcp" is a server to check: add --check/,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(['replay', dir.file('none.jsonl'), ...args]);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
    }
  });
});
