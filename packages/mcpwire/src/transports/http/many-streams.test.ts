// 10,000 concurrently open SSE streams (issue 13): stateless-era listen streams over real sockets
// on 127.0.0.1, opened by a child process so each side holds its own 10,000 descriptors. All are
// served (acknowledged, then each receives one broadcast change), the server's memory per stream is
// measured and printed, and once the client leaves every connection is released.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { statelessPost } from '../../../test/support/http-kit.ts';
import { createHttpHandler } from './handler.ts';
import { serveHttp } from './node.ts';

const STREAMS = 10_000;
const CLIENT = fileURLToPath(new URL('../../../test/fixtures/http/many-streams-client.mjs', import.meta.url));

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap and RSS after a full collection, in bytes. */
async function settledMemory(): Promise<{ heap: number; rss: number }> {
  for (let i = 0; i < 3; i++) {
    gc();
    await delay(20);
  }
  const { heapUsed, rss } = process.memoryUsage();
  return { heap: heapUsed, rss };
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

test(
  `${STREAMS} concurrent listen streams: all served, memory per stream printed, all released`,
  { timeout: 240_000 },
  async (t) => {
    const server = createFixtureServer();
    const handler = createHttpHandler(server, { keepAliveMs: 0, onError: () => {} });
    await using handle = await serveHttp(handler, { port: 0 });
    const port = new URL(handle.url).port;
    const baseline = await settledMemory();

    const child = spawn(process.execPath, [CLIENT, port, String(STREAMS)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async (): Promise<Record<string, number>> => {
      const { value, done } = await lines.next();
      assert.ok(!done, 'the client process ended early');
      return JSON.parse(value as string) as Record<string, number>;
    };
    try {
      assert.deepEqual(await next(), { acked: STREAMS }, 'every stream was acknowledged');
      const open = await settledMemory();
      const perStream = (open.heap - baseline.heap) / STREAMS;
      const message =
        `${STREAMS} open listen streams: heap +${mib(open.heap - baseline.heap)} (${(perStream / 1024).toFixed(1)} KiB per stream), ` +
        `RSS +${mib(open.rss - baseline.rss)} (${((open.rss - baseline.rss) / STREAMS / 1024).toFixed(1)} KiB per stream)`;
      t.diagnostic(message);
      console.log(message);
      assert.equal(
        await new Promise((resolve) => handle.server.getConnections((_e, n) => resolve(n))),
        STREAMS,
      );

      // One change reaches every stream.
      const trigger = await handler(
        statelessPost('tools/call', { name: 'test_trigger_tool_change', arguments: {} }, { id: 'change' }),
      );
      assert.equal(trigger.status, 200);
      await trigger.text();
      assert.deepEqual(await next(), { changed: STREAMS }, 'every stream received the change');

      child.stdin.end();
      await exited;
      for (let n = STREAMS; n > 0; await delay(50)) {
        n = await new Promise<number>((resolve) =>
          handle.server.getConnections((_e, count) => resolve(count)),
        );
      }
      const released = await settledMemory();
      t.diagnostic(`after release: heap +${mib(released.heap - baseline.heap)} over the baseline`);
      assert.ok(
        released.heap - baseline.heap < (open.heap - baseline.heap) / 4,
        `the streams' memory was released (heap +${mib(released.heap - baseline.heap)} after, +${mib(open.heap - baseline.heap)} while open)`,
      );
    } finally {
      child.kill('SIGKILL');
    }
  },
);
