// Cold start (issue 14): from process start (Node) or from starting workerd (miniflare) to the first
// answered stateless-era `tools/call`, for the one-tool zod server of bench/size.ts and the official v2
// SDK's equivalent, each bundled as a user would. Rounds alternate the two servers; medians are printed
// with the ratio to the official SDK and written to bench/results/cold-start-latest.json.
// Env: BENCH_ROUNDS=<n> (default 7; BENCH_QUICK=1: 2).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleFor, type EdgeRuntime } from '../test/edge/edge-bundle.ts';
import { sendStateless, textOf } from '../test/edge/http-script.ts';
import { startRuntime } from '../test/edge/runtime-host.ts';
import { formatNumber, formatRatio, formatTable, median } from './stats.ts';
import { writeResultsFile } from './results-file.ts';

type Side = 'official' | 'mcpwire';
const ENTRIES: Record<'node' | 'workerd', Record<Side, string>> = {
  node: { official: 'node-official.ts', mcpwire: 'node-zod.ts' },
  workerd: { official: 'official-worker.ts', mcpwire: 'worker-zod.ts' },
};

const rounds = Number(process.env['BENCH_ROUNDS'] ?? (process.env['BENCH_QUICK'] === '1' ? 2 : 7));
const home = mkdtempSync(join(tmpdir(), 'mcpwire-bench-cold-'));

/** Milliseconds from starting the runtime to the answer of the first tools/call. */
async function coldStart(runtime: EdgeRuntime, file: string): Promise<number> {
  const started = performance.now();
  await using host = await startRuntime(runtime, file, home);
  const { result } = await sendStateless(host.url, 'tools/call', {
    name: 'echo',
    arguments: { text: 'cold' },
  });
  const elapsed = performance.now() - started;
  if (textOf(result) !== 'echo: cold') throw new Error(`unexpected answer: ${JSON.stringify(result)}`);
  return elapsed;
}

const samples: Record<string, number[]> = {};
try {
  for (const runtime of ['node', 'workerd'] as const) {
    const files: Record<Side, string> = {
      official: (
        await bundleFor(ENTRIES[runtime].official, runtime, { outDir: join(home, `${runtime}-official`) })
      ).file,
      mcpwire: (
        await bundleFor(ENTRIES[runtime].mcpwire, runtime, { outDir: join(home, `${runtime}-mcpwire`) })
      ).file,
    };
    await coldStart(runtime, files.mcpwire); // warm the OS file cache and the runtime binary once
    for (let round = 0; round < rounds; round += 1) {
      for (const side of round % 2 === 0
        ? (['official', 'mcpwire'] as const)
        : (['mcpwire', 'official'] as const))
        (samples[`${runtime}/${side}`] ??= []).push(await coldStart(runtime, files[side]));
    }
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}

const at = (key: string): number | undefined => median(samples[key] ?? []);
console.log(`\nCold start: runtime start to first answered tools/call (median of ${rounds}, ms)\n`);
console.log(
  formatTable(
    ['runtime', 'official v2', 'mcpwire', 'mcpwire / official'],
    (['node', 'workerd'] as const).map((runtime) => [
      runtime === 'node' ? 'node (process start)' : 'workerd (miniflare start)',
      formatNumber(at(`${runtime}/official`), 1),
      formatNumber(at(`${runtime}/mcpwire`), 1),
      formatRatio(at(`${runtime}/mcpwire`), at(`${runtime}/official`)),
    ]),
  ),
);

const outFile = join(import.meta.dirname, 'results', 'cold-start-latest.json');
const report = {
  date: new Date().toISOString(),
  rounds,
  method:
    'bundled fixtures (test/edge/fixtures), start to first answered stateless tools/call over HTTP on 127.0.0.1',
  medianMs: Object.fromEntries(Object.keys(samples).map((key) => [key, Number(at(key)?.toFixed(1))])),
  samplesMs: Object.fromEntries(
    Object.entries(samples).map(([key, values]) => [key, values.map((v) => Number(v.toFixed(1)))]),
  ),
};
await writeResultsFile(outFile, report);
