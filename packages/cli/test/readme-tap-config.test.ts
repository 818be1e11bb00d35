// The README's host config that puts `mcpwire tap` in front of a server, run as a host would run it:
// the snippet is read from README.md, `node /path/to/mcpwire/packages/cli/dist/main.js` replaced by
// this checkout's CLI and the /tmp paths by a temporary folder; a client started from the config gets the server's answers
// through the tap, which writes the transcript and an empty lint log (a clean session).

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { MCPWIRE, ROOT, runCli } from './support/cli-process.ts';
import { parseTranscript } from '../src/wire/transcript.ts';

/** The first ```json block of README.md that mentions "tap". */
async function readmeTapConfig(): Promise<{
  mcpServers: Record<string, { command: string; args: string[] }>;
}> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .find((text) => text.includes('"tap"'));
  assert.ok(block, 'README.md has a host config with mcpwire tap');
  return JSON.parse(block) as { mcpServers: Record<string, { command: string; args: string[] }> };
}

/** `node /path/to/mcpwire/packages/cli/dist/main.js ...` as this checkout's CLI; a /tmp/ path moved into `dir`. */
function localised(words: readonly string[], dir: string): string[] {
  const out: string[] = [];
  for (let index = 0; index < words.length; index++) {
    if (words[index] === 'node' && words[index + 1] === '/path/to/mcpwire/packages/cli/dist/main.js') {
      out.push(...MCPWIRE);
      index += 1;
    } else out.push(words[index]!.replace(/^\/tmp\//, `${dir}/`));
  }
  assert.ok(!out.some((word) => word.includes('/path/to/')), 'every README placeholder replaced');
  return out;
}

test('the README tap config: the host talks through tap, the transcript is written, the lint log stays empty', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcpwire-readme-tap-'));
  try {
    const config = await readmeTapConfig();
    const [name, entry] = Object.entries(config.mcpServers)[0]!;
    const [command, ...args] = localised([entry.command, ...entry.args], dir);
    const file = join(dir, 'mcp.json');
    await writeFile(file, JSON.stringify({ mcpServers: { [name]: { command, args } } }));
    const run = await runCli(['list', name, 'prompts', '--config', file]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^triage_issue /m);
    const recordFile = entry.args[entry.args.indexOf('--record') + 1]!.replace(/^\/tmp\//, `${dir}/`);
    const logFile = entry.args[entry.args.indexOf('--log') + 1]!.replace(/^\/tmp\//, `${dir}/`);
    const transcript = parseTranscript(await readFile(recordFile, 'utf8'), recordFile);
    assert.equal(transcript.header.recorder, 'mcpwire tap');
    const methods = transcript.entries.flatMap((item) =>
      item.type === 'message' && 'method' in item.message ? [item.message.method] : [],
    );
    assert.ok(methods.includes('prompts/list'), methods.join(', '));
    assert.equal(transcript.entries.at(-1)?.type, 'exit');
    assert.equal(await readFile(logFile, 'utf8').catch(() => ''), '', 'no lint findings');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
