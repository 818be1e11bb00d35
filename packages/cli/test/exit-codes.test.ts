// One exit-code rule for every command (issue 22, item 7): 0 done, 1 the server reported a failure,
// 2 the command cannot be run as written against this server, 3 connection or protocol. Each row
// runs the real command against a real server over stdio and checks its exit code and stderr.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FIXTURES, MCPWIRE, OUR_EVERYTHING, runCli } from './support/cli-process.ts';

/** A server that declares tools only (see the fixture). */
const TOOLS_ONLY = ['--', ...MCPWIRE, 'serve', join(FIXTURES, 'exit-codes-server.ts')];
const EVERYTHING = ['--', ...OUR_EVERYTHING];
/** A server that declares none of tools, resources, prompts, completions. */
const EMPTY = ['--', ...MCPWIRE, 'serve', join(FIXTURES, 'exit-codes-empty-server.ts')];
const NOTHING_OFFERED =
  /^mcpwire: the server offers no tools \(it does not declare the "tools" capability\); it offers none of tools, resources, prompts, completions\n$/;

const NO_CAPABILITY = (what: string, capability: string): RegExp =>
  new RegExp(
    `^mcpwire: the server offers no ${what} \\(it does not declare the "${capability}" capability\\); it offers tools\\n$`,
  );

/** [what the row is, the arguments, the server, the exit code, stderr]. */
const ROWS: Array<[string, string[], string[], number, RegExp]> = [
  ['list: a kind offered', ['list', 'tools'], TOOLS_ONLY, 0, /^$/],
  ['list: no kind lists what is offered and skips the rest', ['list'], TOOLS_ONLY, 0, /^$/],
  [
    'list: resources not offered',
    ['list', 'resources'],
    TOOLS_ONLY,
    2,
    NO_CAPABILITY('resources', 'resources'),
  ],
  [
    'list: templates not offered',
    ['list', 'templates'],
    TOOLS_ONLY,
    2,
    NO_CAPABILITY('resource templates', 'resources'),
  ],
  ['list: prompts not offered', ['list', 'prompts'], TOOLS_ONLY, 2, NO_CAPABILITY('prompts', 'prompts')],
  ['get: prompts not offered', ['get', 'greeting'], TOOLS_ONLY, 2, NO_CAPABILITY('prompts', 'prompts')],
  [
    'read: resources not offered',
    ['read', 'test://a'],
    TOOLS_ONLY,
    2,
    NO_CAPABILITY('resources', 'resources'),
  ],
  [
    'complete: completions not offered',
    ['complete', 'greeting', 'name'],
    TOOLS_ONLY,
    2,
    NO_CAPABILITY('completions', 'completions'),
  ],
  ['call: unknown option', ['call', 'book', '--no-such-option'], TOOLS_ONLY, 2, /^mcpwire: unknown option/],
  [
    'call: unknown tool',
    ['call', 'nope'],
    TOOLS_ONLY,
    2,
    /^mcpwire: unknown tool "nope": the server has book, /,
  ],
  ['call: valid arguments', ['call', 'book', 'city=Oslo', 'nights=2', 'room=double'], TOOLS_ONLY, 0, /^$/],
  [
    'call: a missing required argument is found locally',
    ['call', 'book', 'city=Oslo'],
    TOOLS_ONLY,
    2,
    /^mcpwire: argument "nights" is required \(integer\), not given\n$/,
  ],
  [
    'call: a value of the wrong type',
    ['call', 'book', 'city=Oslo', 'nights=two'],
    TOOLS_ONLY,
    2,
    /^mcpwire: argument "nights" expects integer, received "two"\n$/,
  ],
  [
    'call: a JSON value of the wrong type (--args)',
    ['call', 'book', '--args', '{"city": "Oslo", "nights": "2"}'],
    TOOLS_ONLY,
    2,
    /^mcpwire: argument "nights" expects integer, received "2"\n$/,
  ],
  [
    'call: a value outside the enum',
    ['call', 'book', 'city=Oslo', 'nights=2', 'room=suite'],
    TOOLS_ONLY,
    2,
    /^mcpwire: argument "room" expects one of "single", "double", received "suite"\n$/,
  ],
  [
    'call: an unknown argument where additionalProperties is false',
    ['call', 'book', 'city=Oslo', 'nights=2', 'colour=red'],
    TOOLS_ONLY,
    2,
    /^mcpwire: argument "colour" is not one the tool takes \(it takes city, nights, room, breakfast\)\n$/,
  ],
  [
    'call: a schema the CLI cannot check (anyOf) is sent, and the server judges it',
    ['call', 'pick_one'],
    TOOLS_ONLY,
    1,
    /^mcpwire: tool "pick_one" reported an error:\nInvalid arguments for tool "pick_one": .*anyOf/,
  ],
  [
    'call: the tool reports an error',
    ['call', 'fails'],
    TOOLS_ONLY,
    1,
    /^mcpwire: tool "fails" reported an error:\n/,
  ],
  [
    'get: every missing prompt argument, one line each',
    ['get', 'test_prompt_with_arguments'],
    EVERYTHING,
    2,
    /^mcpwire: argument "arg1" is required, not given\nmcpwire: argument "arg2" is required, not given\n$/,
  ],
  ['get: unknown prompt', ['get', 'nope'], EVERYTHING, 2, /^mcpwire: unknown prompt "nope": the server has /],
  [
    'read: a resource the server does not have',
    ['read', 'test://missing'],
    EVERYTHING,
    2,
    /^mcpwire: unknown resource "test:\/\/missing": the server answered error -32\d\d\d: /,
  ],
  [
    'read: a resource the server does not have, handshake era (-32002)',
    ['read', '--era', 'handshake', 'test://missing'],
    EVERYTHING,
    2,
    /^mcpwire: unknown resource "test:\/\/missing": the server answered error -32002: /,
  ],
  [
    'list: resources not offered, handshake era',
    ['list', 'resources', '--era', 'handshake'],
    TOOLS_ONLY,
    2,
    NO_CAPABILITY('resources', 'resources'),
  ],
  ['call: tools not offered', ['call', 'echo'], EMPTY, 2, NOTHING_OFFERED],
  ['list: tools not offered', ['list', 'tools', '--json'], EMPTY, 2, NOTHING_OFFERED],
  ['list: no kind on a server offering nothing', ['list'], EMPTY, 0, /^$/],
  [
    'list: the server cannot be started',
    ['list', '--', 'mcpwire-test-no-such-command'],
    [],
    3,
    /^mcpwire: cannot connect to mcpwire-test-no-such-command: /,
  ],
];

describe('every command follows one exit-code rule', { concurrency: 4 }, () => {
  for (const [name, args, server, code, stderr] of ROWS) {
    test(`${name}: exit ${code}`, async () => {
      const run = await runCli([...args, ...server]);
      assert.equal(run.code, code, `mcpwire ${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, stderr);
      if (code !== 0) assert.equal(run.stdout, '');
    });
  }
});

test('list with no kind on a tools-only server: its tools, no other section, exit 0', async () => {
  const run = await runCli(['list', ...TOOLS_ONLY]);
  assert.deepEqual([run.code, run.stderr], [0, '']);
  assert.match(run.stdout, /^Tools \(3\)\nbook /);
  assert.doesNotMatch(run.stdout, /Resources|Prompts/);
});

test('two bad arguments and a missing one: three lines, exit 2, and no tools/call is sent', async () => {
  const args = ['call', 'book', 'nights=two', 'breakfast=maybe', ...TOOLS_ONLY];
  const run = await runCli(args);
  assert.deepEqual(
    [run.code, run.stdout, run.stderr],
    [
      2,
      '',
      'mcpwire: argument "nights" expects integer, received "two"\n' +
        'mcpwire: argument "breakfast" expects boolean, received "maybe"\n' +
        'mcpwire: argument "city" is required (string), not given\n',
    ],
  );
  const traced = await runCli(['call', '--trace', ...args.slice(1)]);
  assert.equal(traced.code, 2, traced.stderr);
  assert.match(traced.stderr, /tools\/list/);
  assert.doesNotMatch(traced.stderr, /tools\/call/);
});
