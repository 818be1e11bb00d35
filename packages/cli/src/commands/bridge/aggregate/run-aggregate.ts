// `mcpwire bridge --config <file> [names...]`: the config's servers (or the named ones) started as
// upstreams and served as one server on stdio.

import { homedir } from 'node:os';
import { serveStdio } from 'mcpwire/stdio';
import type { HttpServeOptions } from '../../../http-serving/serve-over-http.ts';
import { ExitCode, UsageError, type ExitCodeValue } from '../../../exit-code.ts';
import { readConfigFile } from '../../../target/host-config.ts';
import { fromEntry, type Target } from '../../../target/target.ts';
import { Aggregate } from './aggregate.ts';
import { createNameFilter } from './name-filter.ts';
import { Upstream } from './upstream.ts';

/** What the aggregate front needs. */
export interface AggregateFrontOptions {
  /** A host config file in any format the CLI reads (host-config.ts). */
  config: string;
  /** The servers to serve; empty: every server of the file. */
  names: readonly string[];
  allow: readonly string[];
  deny: readonly string[];
}

/**
 * Resolves every upstream from `options.config` (UsageError for a missing file, an unknown name, a
 * bad entry), then the aggregate ({@link Aggregate}) with every upstream's first start awaited.
 */
export async function createAggregate(options: AggregateFrontOptions): Promise<{
  aggregate: Aggregate;
  upstreams: Upstream[];
}> {
  const targets = resolveUpstreams(options);
  const aggregate = new Aggregate({ isServed: createNameFilter(options.allow, options.deny) });
  const upstreams = [...targets].map(([name, target]) => new Upstream(name, target, aggregate.events));
  for (const upstream of upstreams) aggregate.add(upstream);
  await Promise.all(upstreams.map((upstream) => upstream.start()));
  return { aggregate, upstreams };
}

/** Where the aggregate is served: stdio (the host's one server) or Streamable HTTP. */
export type AggregateFront = { kind: 'stdio' } | ({ kind: 'http' } & HttpServeOptions);

/**
 * Serves the aggregate until the host closes stdin (stdio) or SIGINT/SIGTERM (HTTP); every upstream
 * is stopped before it resolves 0. Over HTTP every session is served by the one aggregate (one set
 * of upstream processes), see docs/bridge.md.
 */
export async function runAggregateFront(
  options: AggregateFrontOptions,
  front: AggregateFront = { kind: 'stdio' },
  wrap: <Server extends object>(server: Server) => Server = (server) => server,
): Promise<ExitCodeValue> {
  const { aggregate, upstreams } = await createAggregate(options);
  try {
    if (front.kind === 'stdio') await serveStdio(wrap(aggregate.server));
    else {
      const { serveOverHttp } = await import('../../../http-serving/serve-over-http.ts');
      const { kind: _kind, ...serving } = front;
      await serveOverHttp(wrap(aggregate.server), {
        ...serving,
        banner: (url) => `serving ${upstreams.length} servers as one at ${url}`,
      });
    }
  } finally {
    await Promise.all(upstreams.map((upstream) => upstream[Symbol.asyncDispose]()));
  }
  return ExitCode.ok;
}

/** The targets of the named servers (or all) of the file, by name, in the file's order. */
function resolveUpstreams(options: AggregateFrontOptions): Map<string, Target> {
  const cwd = process.cwd();
  const location = {
    path: options.config,
    host: 'Claude Code' as const,
    workspaceFolder: cwd,
    scope: 'user' as const,
  };
  const file = readConfigFile(location, cwd);
  if (file === undefined) throw new UsageError(`--config ${options.config}: no such file`);
  const names = options.names.length === 0 ? [...file.entries.keys()] : options.names;
  if (names.length === 0)
    throw new UsageError(`--config ${options.config} defines no servers (under "mcpServers" or "servers")`);
  const targets = new Map<string, Target>();
  for (const name of names) {
    const entry = file.entries.get(name);
    if (entry === undefined)
      throw new UsageError(
        `--config ${options.config} defines no server "${name}"; it defines ${[...file.entries.keys()].join(', ') || 'none'}`,
      );
    const where = `server "${name}" in ${options.config}`;
    targets.set(name, fromEntry(entry, { env: process.env, home: homedir(), workspaceFolder: cwd, where }));
  }
  return targets;
}
