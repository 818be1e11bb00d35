// `mcpwire check --call '<tool> [key=value ...]'`: after listing, the named tools are called once each
// and the results checked (TOOL-3, TOOL-4, TOOL-7). Against the hand-written fixture server's call-*
// cases (fixtures/check/check-server.mjs: the clean answers but for one), whose CHECK_CALL_LOG shows
// which calls reached it, so a test can prove that check calls nothing it was not asked to.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { FIXTURES, runCli, type CliResult } from './support/cli-process.ts';

const SERVER = join(FIXTURES, 'check', 'check-server.mjs');
const work = mkdtempSync(join(tmpdir(), 'mcpwire-check-call-'));
after(() => rmSync(work, { recursive: true, force: true }));

let runs = 0;

/** `mcpwire check <args> -- <case>`, with the calls that reached the server (from its CHECK_CALL_LOG). */
async function check(
  name: string,
  args: readonly string[],
): Promise<CliResult & { calls: Array<{ name: string; arguments: unknown }> }> {
  runs += 1;
  const log = join(work, `calls-${runs}.ndjson`);
  // --env: a stdio server inherits only a few variables of the CLI's environment.
  const target = [
    '--era',
    'handshake',
    '--env',
    `CHECK_CALL_LOG=${log}`,
    '--',
    process.execPath,
    SERVER,
    name,
  ];
  const result = await runCli(['check', ...args, ...target]);
  let text = '';
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    // No call reached the server: no log.
  }
  const calls = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { name: string; arguments: unknown });
  return { ...result, calls };
}

/** The (rule, severity, name) of each finding of a `--format json` run. */
function findingsOf(result: CliResult): Array<[string, string, string]> {
  assert.doesNotThrow(() => JSON.parse(result.stdout), `stdout is JSON: ${result.stdout}\n${result.stderr}`);
  const report = JSON.parse(result.stdout) as {
    findings: Array<{ rule: string; severity: string; name: string; fix: string }>;
  };
  for (const finding of report.findings)
    assert.notEqual(finding.fix, '', `${finding.rule} says what to change`);
  return report.findings.map((finding) => [finding.rule, finding.severity, finding.name]);
}

/** Each call-* case: the call made, the one finding it must give, the exit code. */
const CASES: ReadonlyArray<{ name: string; call: string; finding: [string, string, string]; code: number }> =
  [
    {
      name: 'call-structured-missing',
      call: 'add a=2 b=3',
      finding: ['call/structured-missing', 'error', 'add'],
      code: 1,
    },
    {
      name: 'call-structured-invalid',
      call: 'add a=2 b=3',
      finding: ['call/structured-invalid', 'error', 'add'],
      code: 1,
    },
    {
      name: 'call-structured-without-schema',
      call: 'get_weather city=Oslo',
      finding: ['call/structured-without-schema', 'note', 'get_weather'],
      code: 0,
    },
    {
      name: 'call-not-mirrored',
      call: 'add a=2 b=3',
      finding: ['call/structured-not-mirrored', 'warning', 'add'],
      code: 0,
    },
    { name: 'call-tool-error', call: 'add a=2 b=3', finding: ['call/tool-error', 'note', 'add'], code: 0 },
    { name: 'call-rpc-error', call: 'add a=2 b=3', finding: ['call/rpc-error', 'warning', 'add'], code: 0 },
  ];

describe('mcpwire check --call', { concurrency: 4 }, () => {
  test('the clean server passes its sample calls; only the named tools are called, with typed arguments', async () => {
    const result = await check('call-clean', [
      '--format',
      'json',
      '--call',
      'add a=2 b=3',
      '--call',
      `get_weather city='New York'`,
    ]);
    assert.deepEqual([result.code, findingsOf(result)], [0, []], result.stderr);
    assert.deepEqual(result.calls, [
      { name: 'add', arguments: { a: 2, b: 3 } },
      { name: 'get_weather', arguments: { city: 'New York' } },
    ]);
  });

  test('structuredContent that wraps the text block (the text-only shape) counts as mirrored', async () => {
    // @modelcontextprotocol/server-filesystem answers {content: [{type: "text", text: T}],
    // structuredContent: {content: T}}: a client reading only content gets all of it.
    const result = await check('call-text-wrapper', ['--format', 'json', '--call', 'read_note id=7']);
    assert.deepEqual([result.code, findingsOf(result)], [0, []], result.stderr);
    assert.deepEqual(result.calls, [{ name: 'read_note', arguments: { id: '7' } }]);
  });

  test('the report says which sample calls were made (the text summary and the JSON)', async () => {
    const calls = ['--call', 'add a=2 b=3', '--call', 'ping_host host=example.org'];
    const text = await check('call-clean', calls);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^No findings: 3 tools, .* \(2025-11-25\); sample calls: add, ping_host\.$/m);
    const json = await check('call-clean', ['--format', 'json', ...calls]);
    const report = JSON.parse(json.stdout) as { sampleCalls?: unknown };
    assert.deepEqual(report.sampleCalls, [
      { name: 'add', arguments: { a: 2, b: 3 } },
      { name: 'ping_host', arguments: { host: 'example.org' } },
    ]);
  });

  test('without --call no tool is called', async () => {
    const result = await check('call-clean', ['--format', 'json']);
    assert.deepEqual([result.code, findingsOf(result), result.calls], [0, [], []], result.stderr);
  });

  for (const { name, call, finding, code } of CASES) {
    test(`${name}: ${finding[0]} (${finding[1]}) on "${finding[2]}", exit ${code}`, async () => {
      const result = await check(name, ['--format', 'json', '--call', call]);
      assert.deepEqual([result.code, findingsOf(result)], [code, [finding]], result.stderr);
      assert.equal(result.calls.length, 1);
    });
  }

  test('text: the failed call shows the server message, escaped', async () => {
    const result = await check('call-tool-error', ['--call', 'add a=2 b=3']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^note call\/tool-error tool add: .*overflow \\x1b\[31mred\\u202e.* Fix: /m);
    assert.doesNotMatch(result.stdout, /[\u001b\u202e]/);
    const rpc = await check('call-rpc-error', ['--call', 'add a=2 b=3']);
    assert.match(rpc.stdout, /^warning call\/rpc-error tool add: .*-32602.*a is too big.* Fix: /m);
  });

  test('usage (exit 2, nothing called): a tool the server does not list, bad arguments, a broken quote', async () => {
    const unknown = await check('call-clean', ['--call', 'add a=1 b=2', '--call', 'delete_everything']);
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /delete_everything/);
    const badArgument = await check('call-clean', ['--call', 'add a=two b=2']);
    assert.equal(badArgument.code, 2, badArgument.stderr);
    assert.match(badArgument.stderr, /argument "a" expects number/);
    const quote = await check('call-clean', ['--call', `get_weather city='Oslo`]);
    assert.equal(quote.code, 2, quote.stderr);
    // A server of 130 tools: the message names 30 and counts the rest.
    const many = await check('compat-count', ['--call', 'nope']);
    assert.equal(many.code, 2, many.stderr);
    assert.match(many.stderr, /tool_29, and 100 more\); check calls only a listed tool/);
    assert.deepEqual([...unknown.calls, ...badArgument.calls, ...quote.calls, ...many.calls], []);
  });

  test('--help lists the call/* rules', async () => {
    const help = await runCli(['check', '--help']);
    assert.equal(help.code, 0);
    for (const { finding } of CASES) assert.ok(help.stdout.includes(finding[0]), `${finding[0]} in --help`);
    assert.match(help.stdout, /--call <tool/);
  });
});
