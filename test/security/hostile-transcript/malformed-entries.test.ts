// A transcript whose entries have the right `type` but the wrong shape (issue 21): an entry from
// neither client nor server, a message entry without `from`, an `invalid` entry without its text, an
// HTTP request without headers. `lint` reports each as an `entry-malformed` finding on its line and
// lints the rest; `report` and `replay` say which lines they left out; none of them crashes.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../support/cli-child.ts';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};
const INITIALIZED = {
  jsonrpc: '2.0',
  id: 1,
  result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
};

const LINES = [
  {
    type: 'header',
    format: 'mcpwire-transcript',
    version: 1,
    recorder: 'test',
    transport: 'stdio',
    target: 'x',
    startedAt: '2026-12-06T00:00:00.000Z',
  },
  { type: 'message', t: 1, from: 'client', message: INITIALIZE },
  { type: 'message', t: 2, from: 'proxy', message: { jsonrpc: '2.0', method: 'notifications/initialized' } },
  { type: 'message', t: 3, message: { jsonrpc: '2.0', id: 9, method: 'ping' } },
  { type: 'invalid', t: 4, from: 'server' },
  { type: 'http-request', t: 5, exchange: 1, method: 'POST', url: '/mcp' },
  { type: 'message', t: 6, from: 'server', message: INITIALIZED },
];
const MALFORMED_LINES = [3, 4, 5, 6];
const CRASH = /TypeError|Cannot read|Cannot convert|is not a function|RangeError/;

let dir: string;
let file: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpwire-malformed-'));
  file = join(dir, 'malformed.jsonl');
  await writeFile(file, `${LINES.map((line) => JSON.stringify(line)).join('\n')}\n`);
});

after(() => rm(dir, { recursive: true, force: true }));

describe('a transcript with malformed entries', () => {
  test('mcpwire lint reports each malformed entry as a finding on its line and lints the rest', async () => {
    const result = await runCli(['lint', '--json', file]);
    assert.doesNotMatch(result.stderr, CRASH);
    assert.equal(result.code, 1, result.stderr);
    const findings = JSON.parse(result.stdout) as Array<{ rule: string; line?: number; message: string }>;
    const malformed = findings.filter((finding) => finding.rule === 'entry-malformed');
    assert.deepEqual(
      malformed.map((finding) => finding.line),
      MALFORMED_LINES,
      JSON.stringify(findings),
    );
    assert.match(malformed[0]!.message, /"from"/);
  });

  test('mcpwire report writes its page and names the lines it left out', async () => {
    const output = join(dir, 'report.html');
    const result = await runCli(['report', file, '-o', output]);
    assert.doesNotMatch(result.stderr, CRASH);
    assert.equal(result.code, 0, result.stderr);
    for (const line of MALFORMED_LINES) assert.match(result.stderr, new RegExp(`line ${line}: `));
  });

  test('mcpwire replay serves the well-formed entries and names the lines it left out', async () => {
    const result = await runCli(['replay', file], { input: `${JSON.stringify(INITIALIZE)}\n` });
    assert.doesNotMatch(result.stderr, CRASH);
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(result.stdout.split('\n')[0]!) as { id: number }).id, 1);
    for (const line of MALFORMED_LINES) assert.match(result.stderr, new RegExp(`line ${line}: `));
  });
});
