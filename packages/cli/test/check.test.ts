// `mcpwire check <target>` run as a CI job runs it, against a hand-written fixture server per rule
// (fixtures/check/check-server.mjs: the clean server with one problem each) and the clean one: each
// rule flags its case by id, the clean server passes, --format json parses, SARIF validates against
// the SARIF 2.1.0 schema, and the exit codes say error (1), usage (2) and connection (3).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { CHECK_RULES } from '../src/check/check-rules.ts';
import { FIXTURES, ROOT, runCli } from './support/cli-process.ts';

const SERVER = join(FIXTURES, 'check', 'check-server.mjs');
const SARIF_SCHEMA = join(FIXTURES, 'check', 'sarif-schema-2.1.0.json');

/** `<target>` and the command after `--` for the fixture case `name`. */
function server(name: string): string[] {
  return ['--era', 'handshake', '--', process.execPath, SERVER, name];
}

/** One finding of `--format json`. */
interface JsonFinding {
  rule: string;
  severity: 'error' | 'warning' | 'note';
  kind: string;
  name: string;
  message: string;
  fix: string;
}

/** `mcpwire check --format json <args> -- <case>`: the exit code and the parsed report. */
async function checkJson(
  name: string,
  ...args: string[]
): Promise<{ code: number | null; findings: JsonFinding[]; stderr: string }> {
  const result = await runCli(['check', '--format', 'json', ...args, ...server(name)]);
  assert.doesNotThrow(() => JSON.parse(result.stdout), `stdout is JSON: ${result.stdout}\n${result.stderr}`);
  const report = JSON.parse(result.stdout) as { findings: JsonFinding[] };
  return { code: result.code, findings: report.findings, stderr: result.stderr };
}

/** Each case, the rule it must trip, the definition it names, and whether that fails the check. */
const CASES: ReadonlyArray<{ name: string; rule: string; definition: string; isError: boolean }> = [
  { name: 'tool-name', rule: 'spec/tool-name', definition: 'search files', isError: false },
  { name: 'duplicate-name', rule: 'spec/duplicate-name', definition: 'add', isError: true },
  { name: 'schema-type', rule: 'spec/schema-type', definition: 'list_items', isError: true },
  { name: 'schema-invalid', rule: 'spec/schema-invalid', definition: 'bad_schema', isError: true },
  { name: 'prompt-argument', rule: 'spec/prompt-argument', definition: 'twice', isError: true },
  { name: 'uri-template', rule: 'spec/uri-template', definition: 'file:///{path', isError: true },
  { name: 'annotations', rule: 'spec/annotations-contradict', definition: 'wipe', isError: false },
  { name: 'compat-name', rule: 'compat/tool-name', definition: 'files.read', isError: false },
  { name: 'compat-count', rule: 'compat/tool-count', definition: '', isError: false },
  { name: 'compat-top-level', rule: 'compat/top-level-combinator', definition: 'either', isError: false },
  { name: 'compat-ref', rule: 'compat/ref', definition: 'with_ref', isError: false },
  {
    name: 'compat-pattern-properties',
    rule: 'compat/pattern-properties',
    definition: 'labels',
    isError: false,
  },
  { name: 'compat-format', rule: 'compat/format', definition: 'fetch_url', isError: false },
  { name: 'compat-missing-type', rule: 'compat/missing-type', definition: 'anything', isError: false },
  {
    name: 'compat-description-length',
    rule: 'compat/description-length',
    definition: 'verbose',
    isError: false,
  },
  { name: 'poison-invisible', rule: 'poison/hidden-text', definition: 'notes', isError: true },
  { name: 'poison-zero-width', rule: 'poison/hidden-text', definition: 'zw', isError: true },
  { name: 'poison-bidi', rule: 'poison/hidden-text', definition: 'greet', isError: true },
  { name: 'poison-instruction', rule: 'poison/instruction', definition: 'helper', isError: true },
  { name: 'listing-changed', rule: 'poison/listing-changed', definition: 'get_weather', isError: true },
  {
    name: 'missing-description',
    rule: 'hygiene/missing-description',
    definition: 'undocumented',
    isError: false,
  },
  {
    name: 'parameter-description',
    rule: 'hygiene/parameter-description',
    definition: 'search',
    isError: false,
  },
  { name: 'required-absent', rule: 'hygiene/required-absent', definition: 'lookup', isError: true },
  { name: 'deep-schema', rule: 'spec/schema-too-deep', definition: 'deep', isError: false },
];

describe('mcpwire check', { concurrency: 4 }, () => {
  test('the clean server passes: exit 0, no findings, in text and JSON', async () => {
    const json = await checkJson('clean');
    assert.deepEqual([json.code, json.findings], [0, []], json.stderr);
    const text = await runCli(['check', ...server('clean')]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^No findings: 3 tools, 1 prompt, 1 resource, 1 resource template of check-fixture 1\.0\.0 \(2025-11-25\)\.$/m,
    );
  });

  for (const { name, rule, definition, isError } of CASES) {
    test(`${name}: flagged by ${rule} on "${definition}", exit ${isError ? 1 : 0}`, async () => {
      const { code, findings, stderr } = await checkJson(name);
      const hits = findings.filter((finding) => finding.rule === rule);
      assert.ok(hits.length > 0, `no ${rule} in ${JSON.stringify(findings)}\n${stderr}`);
      assert.ok(
        hits.some((finding) => finding.name === definition),
        `${rule} names ${JSON.stringify(hits.map((finding) => finding.name))}`,
      );
      for (const hit of hits) assert.notEqual(hit.fix, '', `${rule} says what to change`);
      // Only this case's problem: the clean definitions around it raise nothing else of that severity.
      assert.equal(code, isError ? 1 : 0, JSON.stringify(findings));
    });
  }

  test('text: a line per finding (severity, rule, definition, message, fix); server text escaped', async () => {
    const result = await runCli(['check', ...server('poison-bidi')]);
    assert.equal(result.code, 1, result.stderr);
    const line = result.stdout.split('\n').find((each) => each.includes('poison/hidden-text'));
    assert.ok(line !== undefined, result.stdout);
    assert.match(line, /^error poison\/hidden-text prompt greet: .*U\+202E.* Fix: /);
    assert.doesNotMatch(result.stdout, /\u202e/, 'the bidi override never reaches the terminal');
    assert.match(result.stdout, /^1 error, 0 warnings, 0 notes: 3 tools, 2 prompts/m);
  });

  test('a name with ESC and a bidi override reaches the terminal escaped', async () => {
    const result = await runCli(['check', ...server('terminal-escape')]);
    // The bidi override is also poison/hidden-text: an error.
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /^warning spec\/tool-name tool evil\\x1b\[31m\\u202ename: /m);
    assert.doesNotMatch(result.stdout, /[\u001b\u202e]/);
  });

  test('--clients selects the clients; the ones named turn their findings into errors', async () => {
    const anthropic = await checkJson('compat-name', '--clients', 'anthropic');
    assert.equal(anthropic.code, 1);
    const names = anthropic.findings.filter((finding) => finding.rule === 'compat/tool-name');
    assert.equal(names.length, 1, JSON.stringify(names));
    assert.equal(names[0]?.severity, 'error');
    assert.match(names[0]!.message, /Anthropic/);
    // Gemini accepts a dot in a function name: only the clients asked about are checked.
    const gemini = await checkJson('compat-name', '--clients', 'gemini');
    assert.deepEqual([gemini.code, gemini.findings], [0, []]);
    const count = await checkJson('compat-count', '--clients', 'openai,gemini');
    assert.equal(count.code, 1);
    assert.deepEqual(
      count.findings
        .filter((finding) => finding.rule === 'compat/tool-count')
        .map((f) => f.message.split(':')[0]),
      ['OpenAI'],
    );
  });

  test('a refused tool name: the finding names the refused characters or the length, and the fix says what to change', async () => {
    const spaced = await checkJson('tool-name');
    const spec = spaced.findings.find((finding) => finding.rule === 'spec/tool-name');
    assert.match(spec?.message ?? '', /" " is not allowed/, JSON.stringify(spec));
    assert.match(spec?.fix ?? '', /replace " "/);
    const dotted = await checkJson('compat-name', '--clients', 'openai');
    const openai = dotted.findings.find((finding) => finding.rule === 'compat/tool-name');
    assert.match(openai?.message ?? '', /"\." is not allowed/, JSON.stringify(openai));
    assert.match(openai?.fix ?? '', /replace "\."/);
    const long = await checkJson('compat-name-long', '--clients', 'openai,gemini');
    const lengths = long.findings.filter((finding) => finding.rule === 'compat/tool-name');
    assert.equal(lengths.length, 2, JSON.stringify(long.findings));
    for (const finding of lengths) {
      assert.match(finding.message, /is 70 characters long; at most 64/);
      assert.match(finding.fix, /shorten the name to at most 64 characters/);
    }
  });

  test('spec/schema-invalid points into the schema by its own name, not the validator\'s "data"', async () => {
    const { findings } = await checkJson('schema-invalid');
    const invalid = findings.find((finding) => finding.rule === 'spec/schema-invalid');
    assert.match(
      invalid?.message ?? '',
      /inputSchema\/properties\/n\/minimum must be number/,
      JSON.stringify(invalid),
    );
    assert.doesNotMatch(invalid!.message, /\bdata\//);
  });

  test('--format sarif validates against the SARIF 2.1.0 schema, one result per finding', async () => {
    const addFormats = addFormatsModule.default;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8')) as object);
    for (const name of ['clean', 'poison-instruction', 'compat-ref']) {
      const result = await runCli(['check', '--format', 'sarif', ...server(name)]);
      const log = JSON.parse(result.stdout) as {
        runs: Array<{
          results: Array<{ ruleId: string; level: string }>;
          tool: { driver: { rules: unknown[] } };
        }>;
      };
      assert.ok(validate(log), `${name}: ${ajv.errorsText(validate.errors)}`);
      const json = await checkJson(name);
      assert.deepEqual(
        log.runs[0]!.results.map((each) => each.ruleId),
        json.findings.map((finding) => finding.rule),
      );
      assert.equal(result.code, json.code);
    }
  });

  test('--ignore leaves a rule out', async () => {
    const { code, findings } = await checkJson('required-absent', '--ignore', 'hygiene/required-absent');
    assert.deepEqual([code, findings], [0, []]);
  });

  test('exit 2 for a bad --format, an unknown client or rule; exit 3 when the server cannot be reached', async () => {
    const format = await runCli(['check', '--format', 'xml', ...server('clean')]);
    assert.equal(format.code, 2, format.stderr);
    const client = await runCli(['check', '--clients', 'openai,nobody', ...server('clean')]);
    assert.equal(client.code, 2, client.stderr);
    assert.match(client.stderr, /nobody/);
    const rule = await runCli(['check', '--ignore', 'no/such-rule', ...server('clean')]);
    assert.equal(rule.code, 2, rule.stderr);
    const gone = await runCli([
      'check',
      '--era',
      'handshake',
      '--',
      process.execPath,
      '-e',
      'process.exit(0)',
    ]);
    assert.equal(gone.code, 3, gone.stderr);
  });

  test('--help and docs/check.md list the rules', async () => {
    const help = await runCli(['check', '--help']);
    assert.equal(help.code, 0);
    for (const { rule } of CASES) assert.ok(help.stdout.includes(rule), `${rule} in --help`);
    // docs/check.md documents every rule of the catalogue, with its source.
    const docs = readFileSync(join(ROOT, 'docs', 'check.md'), 'utf8');
    const rows = docs.split('\n').filter((line) => line.startsWith('| `'));
    for (const { id } of CHECK_RULES)
      assert.ok(
        rows.some((row) => row.startsWith(`| \`${id}\` `)),
        `${id} in docs/check.md`,
      );
  });
});
