// Bundles the `mcpwire` command into dist/cli/ (after tsc): one module graph of a few files loads
// much faster than ~60 small ones, and a stdio server is spawned for every session.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
});
