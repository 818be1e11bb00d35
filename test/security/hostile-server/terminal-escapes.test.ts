// A hostile server's text must not drive the terminal: every string it controls (tool names and
// descriptions, results, prompt messages, resource contents, error messages, server info and
// instructions, its stderr) reaches the output with its escapes shown, never acted on; --json stays
// the exact strings. Drives the real `mcpwire` against a raw stdio server (fixtures/).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { McpwirePty, ROOT_DIR, runMcpwire } from '../../support/cli-child.ts';

const SERVER = ['--', process.execPath, join(import.meta.dirname, 'fixtures', 'terminal-escapes-server.mjs')];

/** The fixture's payload, as it sends it. */
const H = ' \x1b]8;;http://evil\x07link\x1b]8;;\x07 \x1b]52;c;ZXZpbA==\x07 \x1b[2A \x9b1;1H \u202eevil';

/** What a terminal acts on: ESC (CSI, OSC), BEL (ends an OSC), the C1 CSI, the bidi override. */
const ACTIVE = { ESC: '\x1b', BEL: '\x07', 'C1 CSI': '\x9b', RLO: '\u202e' };

/** How the payload's parts are shown instead. */
const SHOWN = [
  '\\x1b]8;;http://evil\\x07link\\x1b]8;;\\x07',
  '\\x1b]52;c;ZXZpbA==\\x07',
  '\\x1b[2A',
  '\\x9b1;1H',
  '\\u202eevil',
];

function assertInert(output: string, what: string): void {
  for (const [name, char] of Object.entries(ACTIVE))
    assert.equal(output.includes(char), false, `${what} has a raw ${name}: ${JSON.stringify(output)}`);
}

function assertShown(output: string, what: string): void {
  for (const shown of SHOWN)
    assert.ok(output.includes(shown), `${what} lacks ${shown}: ${JSON.stringify(output)}`);
}

function run(args: string[]): ReturnType<typeof runMcpwire> {
  return runMcpwire([...args, ...SERVER], { cwd: ROOT_DIR });
}

describe('terminal escapes in server text (hostile server)', { concurrency: 4 }, () => {
  test('list: names and descriptions shown escaped', async () => {
    const result = await run(['list']);
    assert.equal(result.code, 0, result.stderr);
    assertInert(result.stdout, 'stdout');
    assertShown(result.stdout, 'stdout');
    assert.match(result.stdout, /^tool /m);
  });

  test('list --json: exact JSON of the exact strings, with no raw control on the output', async () => {
    const result = await run(['list', 'tools', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const parsed = JSON.parse(result.stdout) as { tools: Array<{ name: string; description: string }> };
    assert.equal(parsed.tools[0]!.name, `tool${H}`);
    assert.equal(parsed.tools[1]!.description, `a plain tool${H}`);
    assertInert(result.stdout, '--json stdout');
  });

  test('call: content escaped, its line breaks kept; --json exact', async () => {
    const result = await run(['call', 'plain']);
    assert.equal(result.code, 0, result.stderr);
    assertInert(result.stdout, 'stdout');
    assertShown(result.stdout, 'stdout');
    assert.match(result.stdout, /\nsecond line\n$/);
    const json = await run(['call', 'plain', '--json']);
    const parsed = JSON.parse(json.stdout) as { content: Array<{ text: string }> };
    assert.equal(parsed.content[0]!.text, `call result${H}\nsecond line`);
    assertInert(json.stdout, '--json stdout');
  });

  test('call: a tool error and an error response, on stderr, escaped', async () => {
    const fails = await run(['call', 'fails']);
    assert.equal(fails.code, 1, fails.stderr);
    assertInert(fails.stderr, 'stderr of a tool error');
    assertShown(fails.stderr, 'stderr of a tool error');
    const throws = await run(['call', 'throws']);
    assert.equal(throws.code, 1, throws.stderr);
    assertInert(throws.stderr, 'stderr of an error response');
    assertShown(throws.stderr, 'stderr of an error response');
  });

  test('get and read: prompt messages and resource text escaped', async () => {
    const get = await run(['get', 'p']);
    assert.equal(get.code, 0, get.stderr);
    assertInert(get.stdout, 'get stdout');
    assertShown(get.stdout, 'get stdout');
    const read = await run(['read', 'test://r']);
    assert.equal(read.code, 0, read.stderr);
    assertInert(read.stdout, 'read stdout');
    assertShown(read.stdout, 'read stdout');
  });

  test("doctor: the server's info escaped; --verbose relays its stderr escaped", async () => {
    const doctor = await run(['doctor']);
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    assertInert(doctor.stdout, 'doctor stdout');
    assertShown(doctor.stdout, 'doctor stdout');
    const verbose = await run(['list', 'prompts', '--verbose']);
    assert.equal(verbose.code, 0, verbose.stderr);
    assertInert(verbose.stderr, '--verbose stderr');
    assertShown(verbose.stderr, '--verbose stderr');
  });

  test('connect on a terminal: server info, instructions and listings escaped', async () => {
    await using session = new McpwirePty(['connect', ...SERVER], { cwd: ROOT_DIR });
    await session.waitFor('What next?');
    session.write('a');
    await session.waitFor('prompt description');
    await session.waitFor('What next?');
    // The terminal's own escapes (clack's colours and cursor moves) are there; the server's are not.
    for (const raw of ['\x1b]8;;http://evil', '\x1b]52;', '\x1b[2A \x9b', '\x9b', '\u202e'])
      assert.equal(
        session.raw.includes(raw),
        false,
        `raw ${JSON.stringify(raw)} in ${JSON.stringify(session.raw)}`,
      );
    for (const shown of [
      'evil-server \\x1b]8;;http://evil\\x07',
      'instructions \\x1b]8;;http://evil\\x07',
      'tool \\x1b',
    ])
      assert.ok(session.raw.includes(shown), `${shown} not in ${JSON.stringify(session.raw)}`);
  });

  test('connect on a terminal: an elicitation message escaped (a progress message never raw)', async () => {
    await using session = new McpwirePty(['connect', ...SERVER], { cwd: ROOT_DIR });
    await session.waitFor('What next?');
    let from = session.text.length;
    session.write('t');
    await session.waitFor('Tool (type to filter)', from);
    session.write('elicits');
    await session.waitFor('(1 match)', from);
    from = session.text.length;
    session.write('\r');
    await session.waitFor('Send these answers to the server?', from);
    session.write('y');
    await session.waitFor('the user answered accept', from);
    for (const raw of ['\x1b]8;;http://evil', '\x1b]52;', '\x9b', '\u202e'])
      assert.equal(
        session.raw.includes(raw),
        false,
        `raw ${JSON.stringify(raw)} in ${JSON.stringify(session.raw)}`,
      );
    // The progress message shows only between two spinner frames (timer-driven): not asserted shown.
    const shown = 'elicitation \\x1b]8;;http://evil\\x07';
    assert.ok(session.raw.includes(shown), `${shown} not in ${JSON.stringify(session.raw)}`);
  });
});
