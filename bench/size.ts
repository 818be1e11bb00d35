// Bundle size (issue 14): the one-tool web-handler server bundled as a user would (esbuild --bundle --minify,
// ESM, the Workers conditions wrangler uses), gzip level 9 with node:zlib, beside the official v2 SDK's
// equivalent (createMcpHandler + McpServer, a zod tool). Rows: mcpwire's Server with a zod tool; the issue's
// two goals on ServerCore behind createSessionlessHandler (tools without sessions, resources, prompts and
// completions): a Standard Schema tool, and a JSON Schema tool on the code-generation-free validator;
// and, for the record, Server with a JSON Schema tool on its default validator, bundled for Workers
// (cfworker) and for Node (Ajv). Prints a table and writes bench/results/size-latest.json.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleFor, type EdgeBundle, type EdgeRuntime } from '../test/edge/edge-bundle.ts';
import { formatNumber, formatRatio, formatTable } from './stats.ts';
import { writeResultsFile } from './results-file.ts';

interface Row {
  name: string;
  entry: string;
  runtime: EdgeRuntime;
  /** Issue 14's goal for this row, gzipped KiB. */
  goalKiB?: number;
}

const ROWS: Row[] = [
  {
    name: 'official v2: createMcpHandler, zod tool (workerd)',
    entry: 'official-worker.ts',
    runtime: 'workerd',
  },
  { name: 'mcpwire: Server, zod tool (workerd)', entry: 'worker-zod.ts', runtime: 'workerd' },
  {
    name: 'mcpwire: ServerCore sessionless, hand-written Standard Schema (workerd)',
    entry: 'worker-standard.ts',
    runtime: 'workerd',
    goalKiB: 20,
  },
  {
    name: 'mcpwire: ServerCore sessionless, JSON Schema tool, cfworker (workerd)',
    entry: 'worker-core-json-schema.ts',
    runtime: 'workerd',
    goalKiB: 35,
  },
  {
    name: 'mcpwire: Server, JSON Schema tool, default = cfworker (workerd)',
    entry: 'worker-json-schema.ts',
    runtime: 'workerd',
  },
  {
    name: 'mcpwire: Server, JSON Schema tool, default = Ajv (node)',
    entry: 'worker-json-schema.ts',
    runtime: 'node',
  },
];

const dir = mkdtempSync(join(tmpdir(), 'mcpwire-bench-size-'));
const measured: Array<Row & { bundle: EdgeBundle }> = [];
try {
  for (const [index, row] of ROWS.entries())
    measured.push({
      ...row,
      bundle: await bundleFor(row.entry, row.runtime, { outDir: join(dir, String(index)) }),
    });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const official = measured[0]!.bundle;
const kib = (bytes: number): string => formatNumber(bytes / 1024, 1);
console.log('\nBundle size: esbuild --bundle --minify, gzip -9 (KiB)\n');
console.log(
  formatTable(
    ['bundle', 'minified', 'gzipped', 'vs official', 'goal'],
    measured.map(({ name, bundle, goalKiB }) => [
      name,
      kib(bundle.bytes),
      kib(bundle.gzipBytes),
      formatRatio(bundle.gzipBytes, official.gzipBytes),
      goalKiB === undefined ? '' : `${goalKiB} ${bundle.gzipBytes <= goalKiB * 1024 ? 'met' : 'missed'}`,
    ]),
  ),
);

const outFile = join(import.meta.dirname, 'results', 'size-latest.json');
const report = {
  date: new Date().toISOString(),
  method:
    'esbuild bundle+minify, ESM, conditions per runtime (workerd: workerd,worker,browser), gzip level 9',
  rows: measured.map(({ name, entry, runtime, goalKiB, bundle }) => ({
    name,
    entry: `test/edge/fixtures/${entry}`,
    runtime,
    bytes: bundle.bytes,
    gzipBytes: bundle.gzipBytes,
    ratioToOfficial: Number((bundle.gzipBytes / official.gzipBytes).toFixed(3)),
    ...(goalKiB === undefined ? {} : { goalKiB, isGoalMet: bundle.gzipBytes <= goalKiB * 1024 }),
  })),
};
await writeResultsFile(outFile, report);
