// `mcpwire call` of a tool that reports progress: on a terminal one line on stderr redrawn in place
// with each update and erased before the result; piped, nothing but the result. Against our
// everything server and the official one.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpwirePty, ROOT_DIR } from '../../../test/support/cli-child.ts';
import { OFFICIAL_EVERYTHING, OUR_EVERYTHING, runCli } from './support/cli-process.ts';

/** Erases the terminal line the cursor is on: what must follow the last progress line. */
const ERASE_LINE = '\r\x1b[2K';

async function callOnTerminal(args: readonly string[]): Promise<{ raw: string; text: string }> {
  await using pty = new McpwirePty(['call', ...args], { cwd: ROOT_DIR });
  const { exitCode } = await pty.exited;
  assert.equal(exitCode, 0, pty.text);
  return { raw: pty.raw, text: pty.text };
}

describe('call: progress of a one-shot call', { concurrency: 4 }, () => {
  test('on a terminal: a progress line with progress/total and the message, erased before the result', async () => {
    const { raw, text } = await callOnTerminal(['test_tool_with_progress', '--', ...OUR_EVERYTHING]);
    const last = raw.lastIndexOf('Completed step 100 of 100');
    assert.notEqual(last, -1, `no progress line in ${JSON.stringify(raw)}`);
    assert.ok(raw.includes('50/100'), JSON.stringify(raw));
    const erased = raw.indexOf(ERASE_LINE, last);
    assert.notEqual(erased, -1, `the progress line is not erased: ${JSON.stringify(raw)}`);
    // The tool answers with the progressToken it was given (the request's id).
    const result = raw.slice(erased + ERASE_LINE.length);
    assert.match(result, /^\d+\r?\n$/, JSON.stringify(raw));
    assert.equal(text.includes('no progressToken was given'), false, text);
  });

  test('on a terminal against the official everything server: progress without messages', async () => {
    const { raw } = await callOnTerminal([
      'trigger-long-running-operation',
      'duration=0.2',
      'steps=2',
      '--',
      ...OFFICIAL_EVERYTHING,
    ]);
    assert.ok(raw.includes('1/2'), JSON.stringify(raw));
    const erased = raw.lastIndexOf(ERASE_LINE);
    assert.ok(erased > raw.indexOf('1/2'), JSON.stringify(raw));
    assert.match(raw.slice(erased + ERASE_LINE.length), /^Long running operation completed\./);
  });

  test('piped: no progress asked for and nothing extra written; stdout is the result alone', async () => {
    const result = await runCli(['call', 'test_tool_with_progress', '--', ...OUR_EVERYTHING]);
    assert.deepEqual(
      [result.code, result.stdout, result.stderr],
      [0, 'Progress tool completed (no progressToken was given).\n', ''],
    );
  });
});
