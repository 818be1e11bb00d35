// A server process of the soak: our everything server over stdio or Streamable HTTP, which also
// reports its own memory (after a forced GC) every few seconds as `{"soakMemory":...}` lines.
// Usage: node --expose-gc ... bench/soak-server.ts stdio|http <sampleMs>

import { createEverythingServer } from '@mcpwire/server-everything';
import { createHttpHandler } from 'mcpwire/http';
import { serveHttp } from 'mcpwire/node';
import { serveStdio } from 'mcpwire/stdio';
import { MEMORY_KEY, type MemorySample } from './soak-memory.ts';

/**
 * Sessions left behind by a cut connection would otherwise stay for the default 30 minutes and look
 * like a leak in a 30-minute soak; one minute still outlives every request of the mix.
 */
const SESSION_IDLE_TIMEOUT_MS = 60_000;
/** Short `retry:` so resumed streams come back quickly after a cut. */
const RETRY_MS = 200;

function startReporting(write: (line: string) => void, sampleMs: number): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  const report = (): void => {
    gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    const sample: MemorySample = { t: Date.now(), pid: process.pid, heapUsed, rss };
    write(`${JSON.stringify({ [MEMORY_KEY]: sample })}\n`);
  };
  report();
  setInterval(report, sampleMs).unref();
}

async function main(): Promise<void> {
  // The soak reads these pipes; once it is gone (killed, crashed) this server has no one to serve.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => process.exit(0));
  const [mode, sampleText = '5000'] = process.argv.slice(2);
  const sampleMs = Number(sampleText);
  if (mode === 'stdio') {
    startReporting((line) => process.stderr.write(line), sampleMs);
    await serveStdio(createEverythingServer());
    return;
  }
  if (mode !== 'http') throw new Error(`expected "stdio" or "http" as the mode, got ${mode}`);
  const handler = createHttpHandler(createEverythingServer(), {
    sessionIdleTimeoutMs: SESSION_IDLE_TIMEOUT_MS,
    retryMs: RETRY_MS,
    onError: () => {},
  });
  const handle = await serveHttp(handler, { port: 0 });
  process.stdout.write(`${JSON.stringify({ url: handle.url })}\n`);
  startReporting((line) => process.stdout.write(line), sampleMs);
  process.once('SIGTERM', () => void handle.close().then(() => process.exit(0)));
}

await main();
