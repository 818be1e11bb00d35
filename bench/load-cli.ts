// `mcpwire load --json` run as a user runs it (the built CLI as a child process), one slice for the
// load benches (bench/load.ts, bench/load-cpu.ts): its requests, errors and latency buckets.
import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ECHO_LOAD_ARGS, runToEnd } from './load-child.ts';
import type { Slice, SliceConfig } from './load-hand-written.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A stdio server's command (after `--`), or a URL (its first operand). */
export type LoadTarget = { url: string } | { command: readonly string[] };

/** The buckets of `load`'s --json report, each with the value it reads as. */
function bucketsOf(
  buckets: ReadonlyArray<{ fromMs: number; toMs: number; count: number }>,
): Slice['buckets'] {
  return buckets.map((bucket) => [
    bucket.toMs - bucket.fromMs < 1.5e-6 ? bucket.fromMs : (bucket.fromMs + bucket.toMs) / 2,
    bucket.count,
  ]);
}

/**
 * One slice of `build` (a main.js) against `target`: the echo call, `config`'s concurrency, warm-up
 * and window (and rate), `extra` arguments before them. `onSpawn` gets the CLI's process as it starts.
 */
export async function runLoadCli(
  build: string,
  target: LoadTarget,
  options: { config: SliceConfig; extra?: readonly string[]; onSpawn?: (child: ChildProcess) => void },
): Promise<Slice> {
  const { config } = options;
  const args = [
    build,
    'load',
    ...('url' in target ? [target.url] : []),
    ...(options.extra ?? []),
    ...ECHO_LOAD_ARGS,
    '--concurrency',
    String(config.concurrency),
    '--duration',
    `${config.sliceMs}ms`,
    '--warmup',
    `${config.warmupMs}ms`,
    '--json',
    ...(config.rate === undefined ? [] : ['--rate', String(config.rate)]),
    ...('command' in target ? ['--', ...target.command] : []),
  ];
  const { code, stdout, stderr } = await runToEnd(process.execPath, args, { cwd: root }, options.onSpawn);
  if (code !== 0) throw new Error(`mcpwire load exited ${code}: ${stderr.trim().slice(-500)}`);
  const report = JSON.parse(stdout) as {
    totals: { requests: number; errors: number };
    histogram: { buckets: Array<{ fromMs: number; toMs: number; count: number }> };
  };
  return {
    requests: report.totals.requests,
    errors: report.totals.errors,
    buckets: bucketsOf(report.histogram.buckets),
  };
}
