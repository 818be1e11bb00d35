// `mcpwire connect` on a pseudo-terminal, driven with keys as a person would: answering the server's
// elicitation form mid-call, cancelling a long call with Ctrl-C (the server is sent
// notifications/cancelled and the session goes on), and quitting with Ctrl-D; refused off a terminal.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIXTURES, MCPWIRE, OUR_EVERYTHING, runCli } from './support/cli-process.ts';
import { Keys, PtyProcess } from './support/pty-process.ts';

/** Waits for the menu (shown after offset `after`), then picks `tool` from the tool list by typing its name. */
async function chooseTool(session: PtyProcess, tool: string, after: number): Promise<void> {
  await session.waitFor(/What next\?/, after);
  const from = session.text.length;
  session.write('t');
  await session.waitFor(/Tool \(type to filter\)/, from);
  session.write(tool);
  await session.waitFor(new RegExp(`Search: ${tool}\\S* \\(1 match\\)`), from);
  session.write(Keys.enter);
}

test('connect: an elicitation answered, a slow call cancelled with Ctrl-C, the session going on, Ctrl-D quits', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpwire-connect-'));
  const log = join(dir, 'client-to-server.ndjson');
  try {
    await using session = new PtyProcess([
      ...MCPWIRE,
      'connect',
      '--',
      process.execPath,
      join(FIXTURES, 'record-stdin.mjs'),
      log,
      ...OUR_EVERYTHING,
    ]);
    await session.waitFor(/Connected to mcpwire-everything /);

    await chooseTool(session, 'test_streaming_elicitation', 0);
    let from = session.text.length;
    await session.waitFor(/The server asks: Proceed with the operation\?/, from);
    await session.waitFor(/confirm - Whether to proceed/, from);
    session.write('y');
    await session.waitFor(/Send these answers to the server\?/, from);
    session.write('y');
    await session.waitFor(/Received: action=accept, content=\{"confirm":true\}/, from);

    await chooseTool(session, 'test_tool_slow', from);
    from = session.text.length;
    await session.waitFor(/durationMs \(optional\)/, from);
    session.write(`600000${Keys.enter}`);
    // A progress notification arrived: the tool is running on the server.
    await session.waitFor(/Calling test_tool_slow: \d+ of 600000/, from);
    session.write(Keys.ctrlC);
    await session.waitFor(/Cancelled test_tool_slow: the server was sent notifications\/cancelled/, from);

    await chooseTool(session, 'test_tool_fast', from);
    from = session.text.length;
    await session.waitFor(/Fast tool completed\./, from);
    await session.waitFor(/What next\?/, from);
    session.write(Keys.ctrlD);
    assert.equal((await session.exited).exitCode, 0, session.text);
    assert.match(session.text.slice(from), /Bye\./);

    const sent = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            id?: unknown;
            method?: string;
            params?: { name?: string; requestId?: unknown };
          },
      );
    const slow = sent.find(
      (message) => message.method === 'tools/call' && message.params?.name === 'test_tool_slow',
    );
    assert.ok(slow, 'the slow call was sent');
    assert.ok(
      sent.some(
        (message) => message.method === 'notifications/cancelled' && message.params?.requestId === slow.id,
      ),
      'notifications/cancelled for the slow call was sent',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('connect off a terminal is refused with exit 2 and what to use instead', async () => {
  const result = await runCli(['connect', '--', ...OUR_EVERYTHING]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, '');
  assert.match(
    result.stderr,
    /^mcpwire: connect is interactive and needs a terminal on stdin and stdout; in scripts use "mcpwire list\|call\|read\|get\|complete"\n$/,
  );
});

/** The menu waiting for a key (◆; once answered it is drawn again with ◇). */
const ACTIVE_MENU = /◆ {2}What next\?/;

test('connect picker: name matches rank before description matches (exact, prefix, substring), so Enter picks by name', async () => {
  await using session = new PtyProcess([...MCPWIRE, 'connect', '--', ...OUR_EVERYTHING]);
  await session.waitFor(/Connected to mcpwire-everything /);
  await session.waitFor(ACTIVE_MENU);
  let from = session.text.length;
  session.write('t');
  await session.waitFor(/Tool \(type to filter\)/, from);
  // "text" is in echo's description ("Returns the given message as text") and in test_simple_text's name.
  session.write('text');
  await session.waitFor(/Search: text\S* \(\d+ match/, from);
  session.write(Keys.enter);
  await session.waitFor(/This is a simple text response|message \(optional\)/, from);
  assert.doesNotMatch(session.text.slice(from), /message \(optional\)/);
  await session.waitFor(ACTIVE_MENU, from);
  from = session.text.length;
  session.write('t');
  await session.waitFor(/Tool \(type to filter\)/, from);
  // A name prefix (slow_compute) before a name substring (test_tool_slow), whatever the list order.
  session.write('slow');
  await session.waitFor(/Search: slow\S* \(2 matches\)/, from);
  const entered = session.text.length;
  session.write(Keys.enter);
  await session.waitFor(/seconds|durationMs/, entered);
  assert.match(session.text.slice(entered), /seconds/);
  assert.doesNotMatch(session.text.slice(entered), /durationMs/);
  from = session.text.length;
  session.write(Keys.ctrlC);
  await session.waitFor(ACTIVE_MENU, from);
  session.write(Keys.ctrlD);
  assert.equal((await session.exited).exitCode, 0, session.text);
});

test('connect picker: Enter on "No matches found" says so and stays in the picker (no TypeError)', async () => {
  await using session = new PtyProcess([...MCPWIRE, 'connect', '--', ...OUR_EVERYTHING]);
  await session.waitFor(ACTIVE_MENU);
  const from = session.text.length;
  session.write('t');
  await session.waitFor(/Tool \(type to filter\)/, from);
  session.write('zzqqx');
  await session.waitFor(/Search: zzqqx\S* \(0 matches\)/, from);
  const typed = session.text.length;
  session.write(Keys.enter);
  await session.waitFor(/No tool matches|◆ {2}What next\?/, typed);
  assert.doesNotMatch(session.text.slice(typed), /TypeError|Cannot read|What next\?/);
  assert.match(session.text.slice(typed), /No tool matches "zzqqx"/);
  const cancelled = session.text.length;
  session.write(Keys.ctrlC);
  await session.waitFor(ACTIVE_MENU, cancelled);
  session.write(Keys.ctrlD);
  assert.equal((await session.exited).exitCode, 0, session.text);
});

test('connect: Ctrl-C at the menu ends with exit 130 (interrupted), Ctrl-D with 0', async () => {
  await using session = new PtyProcess([...MCPWIRE, 'connect', '--', ...OUR_EVERYTHING]);
  await session.waitFor(ACTIVE_MENU);
  session.write(Keys.ctrlC);
  assert.equal((await session.exited).exitCode, 130, session.text);
});
