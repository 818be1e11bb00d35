// `mcpwire connect` on a pty: an elicitation form checks each answer against what the 2025-11-25
// schema allows (format email/uri/date/date-time, minLength/maxLength, minimum/maximum) and asks
// again with the reason; only checked answers reach the server (issue 22 item 12).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIXTURES, MCPWIRE } from './support/cli-process.ts';
import { Keys, PtyProcess } from './support/pty-process.ts';

const BACKSPACE = '\x7f';

test('connect: an invalid answer is refused with its reason and asked again; the valid one is sent', async () => {
  await using session = new PtyProcess([
    ...MCPWIRE,
    'connect',
    '--',
    ...MCPWIRE,
    'serve',
    join(FIXTURES, 'form-server.ts'),
  ]);
  await session.waitFor(/What next\?/);
  let from = session.text.length;
  session.write('t');
  await session.waitFor(/Tool \(type to filter\)/, from);
  session.write('sign_up');
  await session.waitFor(/Search: sign_up/, from);
  session.write(Keys.enter);
  await session.waitFor(/The server asks: Sign up/, from);

  /** Types `bad`, expects `reason`, erases it, types `good`. */
  const answer = async (field: string, bad: string, reason: RegExp, good: string): Promise<void> => {
    await session.waitFor(new RegExp(`◆ {2}${field}`), from);
    from = session.text.length;
    session.write(`${bad}${Keys.enter}`);
    await session.waitFor(reason, from);
    from = session.text.length;
    session.write(`${BACKSPACE.repeat(bad.length)}${good}${Keys.enter}`);
  };
  await answer('email', 'not-an-email', /Expected an email address/, 'ada@example.com');
  await answer('nick', 'a', /At least 2 characters/, 'ada');
  await answer('age', '12', /At least 18/, '36');
  await answer('birthday', '1990-02-30', /Expected a date as YYYY-MM-DD/, '1990-02-28');
  await answer('site', 'example.com', /Expected a URI/, 'https://example.com/ada');
  await answer('at', '2026-12-06 10:00', /Expected a date-time/, '2026-12-06T10:00:00Z');
  await session.waitFor(/Send these answers to the server\?/, from);
  session.write('y');
  await session.waitFor(
    /Server received: accept \{"email":"ada@example\.com","nick":"ada","age":36,"birthday":"1990-02-28","site":"https:\/\/example\.com\/ada","at":"2026-12-06T10:00:00Z"\}/,
    from,
  );
  await session.waitFor(/◆ {2}What next\?/, from);
  session.write(Keys.ctrlD);
  assert.equal((await session.exited).exitCode, 0, session.text);
});
