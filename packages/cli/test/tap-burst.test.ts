// `mcpwire tap` observes in a low-priority thread behind the forwarding: when the host sends a burst
// and closes stdin at once, the tap still exits only after the thread has recorded and linted every
// byte it forwarded, in the order it forwarded them (transcript and findings complete).

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseTranscript, type MessageEntry } from '../src/wire/transcript.ts';
import { OUR_EVERYTHING } from './support/cli-process.ts';
import { TapProcess } from '../../../test/support/tap-process.ts';

const PINGS = 5_000;

const line = (message: unknown): string => `${JSON.stringify(message)}\n`;
/** A response to a request the server never sent: a response-unknown-id finding (BASE-5). */
const stray = (id: string): string => line({ jsonrpc: '2.0', id, result: {} });

const BURST = [
  line({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'burst', version: '1' } },
  }),
  line({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  stray('stray-first'),
  ...Array.from({ length: PINGS }, (_, i) => line({ jsonrpc: '2.0', id: i + 1, method: 'ping' })),
  stray('stray-last'),
].join('');

const FINDING = /^mcpwire tap: (\S+):(\d+) response-unknown-id error .*\(BASE-5\)$/gm;

describe('mcpwire tap after a burst', () => {
  test(
    '5,000 pipelined pings then EOF: the transcript holds every forwarded line in order, and both findings are reported at their lines (BASE-5)',
    {
      timeout: 180_000,
    },
    async () => {
      const record = join(mkdtempSync(join(tmpdir(), 'mcpwire-tap-burst-')), 'burst.jsonl');
      await using tap = new TapProcess(['--record', record, '--', ...OUR_EVERYTHING]);
      // The server must be up before the burst: closing stdin is the host's shutdown, and a server
      // still starting 2 s after it closed is sent SIGTERM (on a loaded machine, starting takes that).
      const [initialize, ...rest] = BURST.split(/(?<=\n)/);
      tap.child.stdin.write(initialize!);
      await tap.waitForLines(1);
      tap.child.stdin.end(rest.join(''));
      assert.equal((await tap.exited).code, 0, tap.stderr);

      const forwarded = tap.stdout.toString().split('\n').slice(0, -1);
      // initialize's result and every ping's: the burst really crossed before EOF ended the server.
      assert.equal(forwarded.length, PINGS + 1, tap.stderr);
      const lines = readFileSync(record, 'utf8').split('\n').slice(0, -1);
      const { entries } = parseTranscript(lines.join('\n'), record);
      const sent = (from: 'client' | 'server'): string[] =>
        entries
          .filter((entry): entry is MessageEntry => entry.type === 'message' && entry.from === from)
          .map((entry) => JSON.stringify(entry.message));
      assert.deepEqual(sent('client'), BURST.split('\n').slice(0, -1));
      assert.deepEqual(sent('server'), forwarded);
      // One ordered queue for both directions: each response comes after its request, the exit last.
      const indexOf = new Map<string, number>();
      entries.forEach((entry, index) => {
        if (entry.type !== 'message') return;
        const message = entry.message as { id?: unknown; method?: unknown };
        if (message.id !== undefined) indexOf.set(`${entry.from}:${String(message.id)}`, index);
      });
      for (let id = 0; id <= PINGS; id++)
        assert.ok(
          indexOf.get(`client:${id}`)! < indexOf.get(`server:${id}`)!,
          `response ${id} before its request`,
        );
      assert.equal(entries.at(-1)?.type, 'exit');

      const findings = [...tap.stderr.matchAll(FINDING)];
      assert.equal(findings.length, 2, tap.stderr);
      const foundIds = findings.map(([, file, at]) => {
        assert.equal(file, record);
        return (JSON.parse(lines[Number(at) - 1]!) as { message: { id: unknown } }).message.id;
      });
      assert.deepEqual(foundIds, ['stray-first', 'stray-last']);
    },
  );
});
