// A transcript file whose messages nest 100,000 levels deep (issue 21): `lint`, `report` (HTML and
// HAR), `replay` (serving it) and `replay --check` each finish with their normal exit code and say
// that the message was cut at the documented depth; none ends in a RangeError.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../support/cli-child.ts';

const deepJson = (depth: number, leaf: string): string =>
  '{"a":['.repeat(depth / 2) + leaf + ']}'.repeat(depth / 2);

const CUT_NOTICE = /line 6: .*nested deeper than 1000 levels/;

/** A transcript of a stdio or HTTP session whose tools/list result and tools/call nest 100,000 deep. */
function deepTranscript(transport: 'stdio' | 'http'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'mcpwire-deep-transcript-')), `deep-${transport}.jsonl`);
  const lines = [
    `{"type":"header","format":"mcpwire-transcript","version":1,"recorder":"mcpwire tap","transport":"${transport}","target":"x","startedAt":"2026-01-01T00:00:00.000Z"}`,
  ];
  let exchange = 0;
  const message = (t: number, from: 'client' | 'server', text: string): void => {
    if (transport === 'http' && from === 'client') {
      exchange++;
      lines.push(
        `{"type":"http-request","t":${t},"exchange":${exchange},"method":"POST","url":"http://127.0.0.1:1/mcp","headers":{"content-type":"application/json"}}`,
      );
    }
    const via = transport === 'http' ? `,"exchange":${exchange}` : '';
    lines.push(`{"type":"message","t":${t},"from":"${from}","message":${text}${via}}`);
    if (transport === 'http' && from === 'server')
      lines.push(
        `{"type":"http-response","t":${t},"exchange":${exchange},"status":200,"headers":{"content-type":"application/json"}}`,
      );
  };
  message(
    1,
    'client',
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
  );
  message(
    2,
    'server',
    '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}',
  );
  message(3, 'client', '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  message(4, 'client', '{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
  message(
    5,
    'server',
    `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"d","inputSchema":{"type":"object"},"_meta":${deepJson(100_000, '1')}}]}}`,
  );
  message(
    6,
    'client',
    `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"d","arguments":{"x":${deepJson(100_000, '2')}}}}`,
  );
  message(
    7,
    'server',
    `{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":${deepJson(100_000, '3')}}}`,
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function assertNoCrash(result: { stderr: string }): void {
  assert.doesNotMatch(result.stderr, /RangeError|call stack|TypeError/);
}

describe('a transcript with deeply nested messages', { concurrency: 2 }, () => {
  test('mcpwire lint finishes with its normal exit code and reports the cut message', async () => {
    const file = deepTranscript('stdio');
    const result = await runCli(['lint', file]);
    assertNoCrash(result);
    assert.ok(result.code === 0 || result.code === 1, `exit ${result.code}: ${result.stderr}`);
    assert.match(`${result.stdout}${result.stderr}`, CUT_NOTICE);
  });

  test('mcpwire report writes the HTML and says the messages were cut', async () => {
    const file = deepTranscript('stdio');
    const output = `${file}.html`;
    const result = await runCli(['report', file, '-o', output]);
    assertNoCrash(result);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, CUT_NOTICE);
    assert.match(readFileSync(output, 'utf8'), /nested deeper than 1000 levels/);
  });

  test('mcpwire report --har writes the HAR and says the messages were cut', async () => {
    const file = deepTranscript('http');
    const output = `${file}.har`;
    const result = await runCli(['report', '--har', file, '-o', output]);
    assertNoCrash(result);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /line \d+: .*nested deeper than 1000 levels/);
    assert.ok(JSON.parse(readFileSync(output, 'utf8')));
  });

  test('mcpwire replay serves the transcript: the deep answers come back cut and the next request is answered', async () => {
    const file = deepTranscript('stdio');
    const input = [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"d","arguments":{"x":${deepJson(100_000, '2')}}}}`,
      '{"jsonrpc":"2.0","id":4,"method":"ping"}',
    ].join('\n');
    const result = await runCli(['replay', file], { input: `${input}\n` });
    assertNoCrash(result);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, CUT_NOTICE);
    const answers = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id?: number });
    assert.deepEqual(
      answers.map((answer) => answer.id),
      [1, 2, 3, 4],
      result.stdout.slice(0, 2000),
    );
    assert.match(result.stdout, /nested deeper than 1000 levels/);
  });

  test('mcpwire replay --check compares a live server with it and exits 1 (it differs), not a crash', async () => {
    const file = deepTranscript('stdio');
    const server = join(import.meta.dirname, '..', 'hostile-server', 'fixtures', 'deep-json-server.mjs');
    const result = await runCli(['replay', '--check', file, '--', process.execPath, server]);
    assertNoCrash(result);
    assert.equal(result.code, 1, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stderr, CUT_NOTICE);
    assert.match(result.stdout, /tools\/list/);
  });
});
