// Bundles an edge fixture as a user would: esbuild, minified ESM, one file, the target runtime's package
// conditions (wrangler's for workerd), the library taken from source. Sizes are gzip level 9 of that file.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/** The runtimes a fixture is bundled for. */
export type EdgeRuntime = 'workerd' | 'deno' | 'bun' | 'node';

/** The package conditions each runtime's own bundler or loader resolves with (wrangler: workerd, worker, browser). */
export const RUNTIME_CONDITIONS: Readonly<Record<EdgeRuntime, readonly string[]>> = {
  workerd: ['workerd', 'worker', 'browser'],
  deno: ['deno'],
  bun: ['bun'],
  node: ['node'],
};

/** One bundle: its file, its bytes, and which inputs esbuild kept. */
export interface EdgeBundle {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly code: string;
  /** Repository-relative (or node_modules-relative) paths of every input that contributed code. */
  readonly inputs: readonly string[];
}

const FIXTURES = join(import.meta.dirname, 'fixtures');

/**
 * Bundles `entry` (a path, or a name in test/edge/fixtures) for `runtime` into a fresh temp folder.
 * `conditions` replaces the runtime's; the library's source condition is always added, so the build
 * needs no `npm run build`.
 */
export async function bundleFor(
  entry: string,
  runtime: EdgeRuntime,
  options: { conditions?: readonly string[]; outDir?: string } = {},
): Promise<EdgeBundle> {
  const entryPath = entry.includes('/') ? entry : join(FIXTURES, entry);
  const result = await build({
    entryPoints: [entryPath],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: runtime === 'node' ? 'node' : 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['@mcpwire/source', ...(options.conditions ?? RUNTIME_CONDITIONS[runtime])],
    // The runtime's own modules, as wrangler leaves them to workerd.
    external: runtime === 'workerd' ? ['cloudflare:*'] : [],
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const output = result.outputFiles[0]!;
  const dir = options.outDir ?? mkdtempSync(join(tmpdir(), 'mcpwire-edge-'));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'bundle.mjs');
  writeFileSync(file, output.contents);
  return {
    file,
    bytes: output.contents.byteLength,
    gzipBytes: gzipSync(output.contents, { level: 9 }).byteLength,
    code: output.text,
    inputs: keptInputs(result.metafile),
  };
}

function keptInputs(metafile: Metafile): string[] {
  const [output] = Object.values(metafile.outputs);
  return Object.entries(output?.inputs ?? {})
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path);
}
