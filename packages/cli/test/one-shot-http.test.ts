// The one-shot commands over Streamable HTTP: against `mcpwire serve everything --http 0` and the
// official everything server's streamableHttp mode, with --json, --header and the exit codes.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from './support/cli-process.ts';
import { startOfficialHttpServer, startOurHttpServer, type HttpServer } from './support/http-servers.ts';

describe('one-shot commands over Streamable HTTP', { concurrency: 4 }, () => {
  let ours: HttpServer;
  let official: HttpServer;

  before(async () => {
    [ours, official] = await Promise.all([startOurHttpServer(), startOfficialHttpServer()]);
  });

  after(async () => {
    await Promise.all([ours[Symbol.asyncDispose](), official[Symbol.asyncDispose]()]);
  });

  test('ours: list, call (exit 0 and 1), read, get, complete, with a --header', async () => {
    const tools = await runCli(['list', ours.url, 'tools', '--header', 'X-Trace: cli-test']);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /^echo +Returns the given message/);
    const sum = await runCli(['call', ours.url, 'add_numbers', 'a=20', 'b=22', '--json']);
    assert.equal(sum.code, 0, sum.stderr);
    assert.deepEqual((JSON.parse(sum.stdout) as { structuredContent: unknown }).structuredContent, {
      sum: 42,
    });
    const failed = await runCli(['call', ours.url, 'test_error_handling']);
    assert.equal(failed.code, 1);
    const read = await runCli(['read', ours.url, 'test://static-text']);
    assert.deepEqual([read.code, read.stdout], [0, 'This is the content of the static text resource.\n']);
    const prompt = await runCli(['get', ours.url, 'test_simple_prompt']);
    assert.deepEqual(
      [prompt.code, prompt.stdout],
      [0, 'A simple prompt without arguments\nuser: This is a simple prompt for testing.\n'],
    );
    const values = await runCli(['complete', ours.url, 'test_prompt_with_arguments', 'arg1', 'tes']);
    assert.deepEqual([values.code, values.stdout], [0, 'test\ntesting\ntest-value\n']);
  });

  test('ours, each era: --era handshake and --era stateless both work against one endpoint', async () => {
    for (const era of ['handshake', 'stateless']) {
      const result = await runCli(['call', ours.url, 'echo', 'message=' + era, '--era', era]);
      assert.deepEqual([result.code, result.stdout], [0, `${era}\n`], result.stderr);
    }
  });

  test('official: list, call, read and a usage error', async () => {
    const prompts = await runCli(['list', official.url, 'prompts', '--json']);
    assert.equal(prompts.code, 0, prompts.stderr);
    const names = (JSON.parse(prompts.stdout) as { prompts: Array<{ name: string }> }).prompts.map(
      (item) => item.name,
    );
    assert.ok(names.includes('simple-prompt'), names.join());
    const sum = await runCli(['call', official.url, 'get-sum', 'a=1', 'b=2']);
    assert.deepEqual([sum.code, sum.stdout.trim()], [0, 'The sum of 1 and 2 is 3.']);
    const read = await runCli(['read', official.url, 'demo://resource/dynamic/text/2']);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /2/);
    const wrong = await runCli(['call', official.url, 'get-sum', 'a=one', 'b=2']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /^mcpwire: argument "a" expects number, received "one"\n$/);
  });

  test('a wrong path is a connection failure, exit 3', async () => {
    const result = await runCli(['list', ours.url.replace(/\/mcp$/, '/nope')]);
    assert.equal(result.code, 3);
    assert.match(result.stderr, /^mcpwire: cannot connect to http:\/\/127\.0\.0\.1:\d+\/nope: /);
  });
});
