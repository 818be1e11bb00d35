// `mcpwire list|call|read|get|complete` as a script runs them: against our everything server and the
// official one, started over stdio after `--`, with human and --json output and every exit code.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  childEnv,
  MCPWIRE,
  OFFICIAL_EVERYTHING,
  OUR_EVERYTHING,
  ROOT,
  runCli,
  runCliIntoHead,
} from './support/cli-process.ts';

const OURS = ['--', ...OUR_EVERYTHING];
const OFFICIAL = ['--', ...OFFICIAL_EVERYTHING];

describe('one-shot commands against "mcpwire serve everything" over stdio', { concurrency: 4 }, () => {
  test('list: every kind in headed sections; one kind as bare lines; --json the lists', async () => {
    const all = await runCli(['list', ...OURS]);
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, /^Tools \(\d+\)\necho {2,}Returns the given message/m);
    assert.match(all.stdout, /^Resources \(\d+\)$/m);
    assert.match(all.stdout, /^Resource templates \(\d+\)\ntest:\/\/template\/\{id\}\/data/m);
    assert.match(
      all.stdout,
      /^test_prompt_with_arguments +A prompt with required arguments \(arg1, arg2\)$/m,
    );
    const prompts = await runCli(['list', 'prompts', ...OURS]);
    assert.equal(prompts.code, 0, prompts.stderr);
    assert.match(prompts.stdout, /^test_input_required_result_prompt +A prompt/);
    assert.match(prompts.stdout, /^test_simple_prompt +A simple prompt without arguments$/m);
    assert.doesNotMatch(prompts.stdout, /Prompts \(/);
    const json = await runCli(['list', 'tools', '--json', ...OURS]);
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as { tools: Array<{ name: string; inputSchema: object }> };
    assert.deepEqual(Object.keys(parsed), ['tools']);
    assert.equal(parsed.tools[0]?.name, 'echo');
    assert.equal(json.stderr, '');
  });

  test('call: arguments typed by the input schema; --args JSON; --json is the whole result', async () => {
    const sum = await runCli(['call', 'add_numbers', 'a=2', 'b=3.5', ...OURS]);
    assert.deepEqual([sum.code, sum.stdout, sum.stderr], [0, '5.5\n', '']);
    const json = await runCli(['call', 'add_numbers', '--args', '{"a": 1, "b": 2}', '--json', ...OURS]);
    assert.equal(json.code, 0, json.stderr);
    const result = JSON.parse(json.stdout) as { content: unknown[]; structuredContent: unknown };
    assert.deepEqual(result.structuredContent, { sum: 3 });
    assert.deepEqual(result.content, [{ type: 'text', text: '3' }]);
    // key=value wins over --args; a string argument stays text even when it looks like a number.
    const echo = await runCli(['call', 'echo', '--args', '{"message":"from args"}', 'message=42', ...OURS]);
    assert.deepEqual([echo.code, echo.stdout], [0, '42\n']);
  });

  test('call exits 1 with the tool error on stderr (stdout empty), or the result with --json', async () => {
    const failed = await runCli(['call', 'test_error_handling', ...OURS]);
    assert.equal(failed.code, 1);
    assert.equal(failed.stdout, '');
    assert.match(
      failed.stderr,
      /^mcpwire: tool "test_error_handling" reported an error:\nThis tool intentionally/,
    );
    const json = await runCli(['call', 'test_error_handling', '--json', ...OURS]);
    assert.equal(json.code, 1);
    assert.equal((JSON.parse(json.stdout) as { isError: boolean }).isError, true);
  });

  test('usage errors exit 2 naming what to do: unknown tool, a value of the wrong type, a missing prompt argument', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['call', 'no_such_tool'], /^mcpwire: unknown tool "no_such_tool": the server has echo, /],
      [['call', 'add_numbers', 'a=two', 'b=1'], /^mcpwire: argument "a" expects number, received "two"\n$/],
      [
        ['call', 'add_numbers', 'oops'],
        /^mcpwire: expected key=value, received "oops"\nmcpwire: argument "a" is required \(number\), not given\nmcpwire: argument "b" is required \(number\), not given\n$/,
      ],
      [['call', 'echo', '--args', '[1]'], /^mcpwire: --args expects a JSON object/],
      [
        ['get', 'test_prompt_with_arguments', 'arg1=x'],
        /^mcpwire: argument "arg2" is required, not given\n$/,
      ],
      [
        ['list', 'everything'],
        /^mcpwire: command-argument value 'everything' is invalid for argument 'kind'\. Allowed choices are tools, resources, templates, prompts\. \(see "mcpwire list --help"\)\n$/,
      ],
    ];
    await Promise.all(
      cases.map(async ([args, message]) => {
        const result = await runCli([...args, ...OURS]);
        assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.equal(result.stdout, '');
        assert.match(result.stderr, message);
      }),
    );
  });

  test("read prints text as it is; an unknown resource is exit 2 with the server's answer", async () => {
    const text = await runCli(['read', 'test://static-text', ...OURS]);
    assert.deepEqual([text.code, text.stdout], [0, 'This is the content of the static text resource.\n']);
    const binary = await runCli(['read', 'test://static-binary', ...OURS]);
    assert.equal(binary.code, 0, binary.stderr);
    assert.match(binary.stdout, /^\[blob image\/png, \d+ bytes: use --json to get it\]\n$/);
    const json = await runCli(['read', 'test://static-binary', '--json', ...OURS]);
    assert.ok(
      (JSON.parse(json.stdout) as { contents: Array<{ blob: string }> }).contents[0]!.blob.length > 0,
    );
    const missing = await runCli(['read', 'test://missing', ...OURS]);
    assert.equal(missing.code, 2);
    assert.equal(missing.stdout, '');
    assert.match(
      missing.stderr,
      /^mcpwire: unknown resource "test:\/\/missing": the server answered error -32602: /,
    );
  });

  test('get prints the messages; complete prints the values of a prompt argument and a template variable', async () => {
    const prompt = await runCli(['get', 'test_prompt_with_arguments', 'arg1=hello', 'arg2=world', ...OURS]);
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.match(prompt.stdout, /^user: Prompt with arguments: arg1='hello', arg2='world'$/m);
    const json = await runCli(['get', 'test_simple_prompt', '--json', ...OURS]);
    assert.deepEqual((JSON.parse(json.stdout) as { messages: unknown[] }).messages, [
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
    ]);
    const values = await runCli(['complete', 'test_prompt_with_arguments', 'arg1', 'test', ...OURS]);
    assert.deepEqual([values.code, values.stdout], [0, 'test\ntesting\ntest-value\n']);
    const ids = await runCli(['complete', 'test://template/{id}/data', 'id', '1', '--json', ...OURS]);
    assert.deepEqual((JSON.parse(ids.stdout) as { completion: { values: string[] } }).completion.values, [
      '123',
      '1001',
    ]);
  });

  test('connection failures exit 3: a command that does not exist, a server that exits, a refused URL', async () => {
    const missing = await runCli(['list', '--', 'mcpwire-test-no-such-command']);
    assert.equal(missing.code, 3);
    assert.match(
      missing.stderr,
      /^mcpwire: cannot connect to mcpwire-test-no-such-command: .*ENOENT; check the command and your PATH\n$/,
    );
    const exits = await runCli([
      'list',
      '--',
      process.execPath,
      '-e',
      'console.error("bad config"); process.exit(4)',
    ]);
    assert.equal(exits.code, 3);
    // Its exit code and what it wrote on stderr explain why it went away (once, not twice).
    assert.match(exits.stderr, /^mcpwire: cannot connect to .*exited with code 4.*\nbad config\n$/s);
    const refused = await runCli(['list', 'http://127.0.0.1:9/mcp']);
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /^mcpwire: cannot connect to http:\/\/127\.0\.0\.1:9\/mcp: /);
  });

  test('a broken server listing a tool without inputSchema still lists (no crash), exit 0', async () => {
    const sloppy = join(import.meta.dirname, 'fixtures', 'lint', 'misbehaving-server.ts');
    const run = await runCli([
      'list',
      'tools',
      '--era',
      'handshake',
      '--',
      process.execPath,
      `--import=${import.meta.resolve('tsx')}`,
      sloppy,
      'sloppy',
    ]);
    assert.deepEqual([run.code, run.stdout], [0, 'echo\n'], run.stderr);
  });

  test('"| head -1" closing stdout early ends the command quietly, exit 0', async () => {
    const piped = await runCliIntoHead(['list', 'tools', ...OURS], 1);
    assert.match(piped.head, /^echo +Returns the given message[^\n]*\n$/);
    assert.deepEqual([piped.code, piped.stderr], [0, '']);
  });
});

describe('one-shot commands against the official server-everything over stdio', { concurrency: 4 }, () => {
  test('list, call, read, get and complete', async () => {
    const tools = await runCli(['list', 'tools', ...OFFICIAL]);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /^echo +Echoes back the input string \(message: string\)$/m);
    const sum = await runCli(['call', 'get-sum', 'a=2', 'b=40', ...OFFICIAL]);
    assert.deepEqual([sum.code, sum.stdout.trim()], [0, 'The sum of 2 and 40 is 42.']);
    const read = await runCli(['read', 'demo://resource/dynamic/text/1', '--json', ...OFFICIAL]);
    assert.equal(read.code, 0, read.stderr);
    assert.equal(
      (JSON.parse(read.stdout) as { contents: Array<{ uri: string }> }).contents[0]?.uri,
      'demo://resource/dynamic/text/1',
    );
    const prompt = await runCli(['get', 'args-prompt', 'city=Paris', ...OFFICIAL]);
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.match(prompt.stdout, /^user: .*Paris/m);
    const completion = await runCli(['complete', 'completable-prompt', 'department', 'E', ...OFFICIAL]);
    assert.deepEqual([completion.code, completion.stdout], [0, 'Engineering\n']);
  });
});

test('call --args @file.json and --args - (stdin) read the arguments object from a file or stdin', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpwire-args-'));
  try {
    const file = join(dir, 'args.json');
    writeFileSync(file, '{"a": 2, "b": 3}\n');
    const fromFile = await runCli(['call', 'add_numbers', '--args', `@${file}`, ...OURS]);
    assert.deepEqual([fromFile.code, fromFile.stdout, fromFile.stderr], [0, '5\n', '']);
    const fromStdin = await runCli(['call', 'add_numbers', '--args', '-', 'b=10', ...OURS], {
      input: '{"a": 1, "b": 1}',
    });
    assert.deepEqual([fromStdin.code, fromStdin.stdout, fromStdin.stderr], [0, '11\n', '']);
    const missing = await runCli(['call', 'add_numbers', '--args', `@${join(dir, 'none.json')}`, ...OURS]);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /^mcpwire: --args @.*none\.json: cannot read it \(ENOENT/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('list --trace with stdout and stderr both closed early (2>&1 | head -1) ends quietly, exit 0', async () => {
  const child = spawn(MCPWIRE[0]!, [...MCPWIRE.slice(1), 'list', '--trace', ...OURS], {
    cwd: ROOT,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The reader is gone before the command writes: every write meets EPIPE, on stderr (the trace) first.
  child.stdout.destroy();
  child.stderr.destroy();
  const [code] = (await once(child, 'close')) as [number | null];
  assert.equal(code, 0);
});
