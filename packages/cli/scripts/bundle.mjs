// Bundles the `mcpwire` command into dist/: the CLI, the library and the reference servers from their
// TypeScript sources as one module graph of a few files (it loads much faster than ~100 small ones, and
// a stdio server is spawned for every session). Third-party packages stay imports: they are the CLI's
// own `dependencies`.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

/** Workspace packages (and their `#` subpath imports) are bundled from source; every other bare import is left to node_modules. */
const workspacePackages = /^(mcpwire|@mcpwire\/[^/]+)(\/|$)/;
/**
 * Workspace packages the CLI lists in its `dependencies` (and @mcpwire/redis, its optional peer, loaded
 * only by `serve --redis`, which brings the `redis` client): imported from node_modules (their dist), not bundled.
 */
const dependencyPackages = /^@mcpwire\/(auth-server|redis)(\/|$)/;

// Chunk names carry a content hash: without a clean folder, every build would leave the old ones behind.
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { main: 'src/main.ts' },
  absWorkingDir: new URL('..', import.meta.url).pathname,
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['@mcpwire/source'],
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-third-party',
      setup(pluginBuild) {
        pluginBuild.onResolve({ filter: /^[^./#]/ }, (args) =>
          workspacePackages.test(args.path) && !dependencyPackages.test(args.path)
            ? undefined
            : { path: args.path, external: true },
        );
      },
    },
  ],
});
