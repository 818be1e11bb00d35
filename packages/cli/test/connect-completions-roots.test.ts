// `mcpwire connect` on a pty against "mcpwire serve everything": a prompt's arguments offered with the
// server's completions (completion/complete, ref/prompt) as choices, free text still allowed; and the
// current folder declared as the client's one root, answered to roots/list (issue 22 item 12).

import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { MCPWIRE, OUR_EVERYTHING } from './support/cli-process.ts';
import { Keys, PtyProcess } from './support/pty-process.ts';

/** At the menu (after offset `after`), presses `key` and picks `name` in the picker titled `title`. */
async function choose(
  session: PtyProcess,
  key: string,
  title: string,
  name: string,
  after: number,
): Promise<void> {
  await session.waitFor(/◆ {2}What next\?/, after);
  const from = session.text.length;
  session.write(key);
  await session.waitFor(new RegExp(`${title} \\(type to filter\\)`), from);
  session.write(name);
  await session.waitFor(new RegExp(`Search: ${name}`), from);
  session.write(Keys.enter);
}

test('connect: prompt arguments offer the server completions as choices, and free text', async () => {
  await using session = new PtyProcess([...MCPWIRE, 'connect', '--', ...OUR_EVERYTHING]);
  await choose(session, 'p', 'Prompt', 'test_prompt_with_arguments', 0);
  let from = session.text.length;
  // arg1: the server's four suggestions, then a way to type something else; "hello" is the fourth.
  await session.waitFor(
    /◆ {2}arg1 - First test argument[\s\S]*test[\s\S]*testing[\s\S]*test-value[\s\S]*hello[\s\S]*Type a value/,
    from,
  );
  session.write(`${Keys.down}${Keys.down}${Keys.down}${Keys.enter}`);
  await session.waitFor(
    /◆ {2}arg2 - Second test argument[\s\S]*world[\s\S]*wide[\s\S]*web[\s\S]*Type a value/,
    from,
  );
  from = session.text.length;
  session.write(`${Keys.down}${Keys.down}${Keys.down}${Keys.enter}`);
  await session.waitFor(/◆ {2}arg2/, from);
  session.write(`mars${Keys.enter}`);
  await session.waitFor(/Prompt with arguments: arg1='hello', arg2='mars'/, from);
  await session.waitFor(/◆ {2}What next\?/, from);
  session.write(Keys.ctrlD);
  assert.equal((await session.exited).exitCode, 0, session.text);
});

test('connect: the current folder is the client root the server lists (roots/list)', async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcpwire-roots-')));
  try {
    await using session = new PtyProcess([...MCPWIRE, 'connect', '--', ...OUR_EVERYTHING], { cwd: dir });
    await choose(session, 't', 'Tool', 'test_list_roots', 0);
    const root = pathToFileURL(dir).href;
    await session.waitFor(
      new RegExp(`Client roots:\\s*│?\\s*${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
    await session.waitFor(/◆ {2}What next\?/, session.text.indexOf('Client roots:'));
    session.write(Keys.ctrlD);
    assert.equal((await session.exited).exitCode, 0, session.text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
