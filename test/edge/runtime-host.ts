// Starts a bundle in a real runtime listening on 127.0.0.1: workerd through miniflare, or a deno, bun or
// node child process. Every runtime's caches and home live in the caller's temp folder, so a run leaves
// nothing behind; the child gets no NODE_OPTIONS (the bundle is plain JavaScript).

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Miniflare } from 'miniflare';
import { freePort } from '../support/free-port.ts';
import { loadPeer, peerBin } from '../support/peers.ts';
import type { EdgeRuntime } from './edge-bundle.ts';

/** A running server: its MCP endpoint, and how to stop it. */
export interface RuntimeHost extends AsyncDisposable {
  readonly runtime: EdgeRuntime;
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** What the child wrote to stderr so far (empty for workerd), for failure messages. */
  stderr(): string;
}

/** Compatibility date for workerd: one the installed workerd supports. */
export const COMPATIBILITY_DATE = '2026-07-01';

/**
 * Serves `bundleFile` with `runtime`, `home` (a temp folder the caller removes) holding every cache.
 * Resolves once the server listens: miniflare says so, a child prints its `MCP server at <url>` line.
 * `bindings` are the Worker's environment (secrets, vars) in workerd.
 */
export async function startRuntime(
  runtime: EdgeRuntime,
  bundleFile: string,
  home: string,
  options: { bindings?: Record<string, string> } = {},
): Promise<RuntimeHost> {
  const port = await freePort();
  if (runtime === 'workerd') return startWorkerd(bundleFile, port, home, options.bindings ?? {});
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: home,
    PORT: String(port),
    NO_COLOR: '1',
    DENO_DIR: join(home, 'deno'),
    DENO_NO_UPDATE_CHECK: '1',
    BUN_INSTALL_CACHE_DIR: join(home, 'bun'),
    BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0',
  };
  // Bun and Deno come from test/peers, looked up only for the runtime asked for.
  const argv: Record<Exclude<EdgeRuntime, 'workerd'>, () => [string, string[]]> = {
    deno: () => [
      peerBin('deno'),
      ['run', '--no-prompt', '--allow-net=127.0.0.1', '--allow-env=PORT', bundleFile],
    ],
    bun: () => [peerBin('bun'), ['run', bundleFile]],
    node: () => [process.execPath, [bundleFile]],
  };
  const [command, args] = argv[runtime]();
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return waitForListening(runtime, child);
}

async function startWorkerd(
  bundleFile: string,
  port: number,
  home: string,
  bindings: Record<string, string>,
): Promise<RuntimeHost> {
  // Miniflare names its scratch folder from os.tmpdir() in the constructor and removes it without waiting
  // on dispose: pointing TMPDIR at `home` for that synchronous call keeps it where the caller cleans up.
  const { Miniflare } = loadPeer('miniflare');
  const tmpdir = process.env['TMPDIR'];
  process.env['TMPDIR'] = home;
  let mf: Miniflare;
  try {
    mf = new Miniflare({
      modules: true,
      script: readFileSync(bundleFile, 'utf8'),
      compatibilityDate: COMPATIBILITY_DATE,
      bindings,
      host: '127.0.0.1',
      port,
    });
  } finally {
    if (tmpdir === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = tmpdir;
  }
  const ready = await mf.ready;
  return {
    runtime: 'workerd',
    url: new URL('/mcp', ready).href,
    stderr: () => '',
    [Symbol.asyncDispose]: () => mf.dispose(),
  };
}

async function waitForListening(runtime: EdgeRuntime, child: ChildProcess): Promise<RuntimeHost> {
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const match = /^MCP server at (\S+)$/.exec(line);
      if (match) resolve(match[1]!);
    });
    void exited.then(([code]) =>
      reject(new Error(`${runtime} exited (${String(code)}) before listening:\n${stderr}`)),
    );
  });
  return {
    runtime,
    url,
    stderr: () => stderr,
    [Symbol.asyncDispose]: async () => {
      lines.close();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
