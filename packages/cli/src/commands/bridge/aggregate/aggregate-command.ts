// The usage checks of `bridge --config` (which options apply with it) and its dispatch to a front.

import { checkDevAuthHost } from '../../../dev-auth/dev-auth-host.ts';
import { UsageError, type ExitCodeValue } from '../../../exit-code.ts';
import type { AggregateFront } from './run-aggregate.ts';

/** The bridge options `--config` looks at. */
export interface AggregateCommandOptions {
  config: string;
  allow?: string[];
  deny?: string[];
  header?: string[];
  http?: number;
  host: string;
  allowHost?: string[];
  auth?: 'dev' | false;
  insecureDevAuthOnNetwork?: boolean;
  maxSessions: number;
  idleTimeout: number;
  /** `--sse-after`: ms before an unanswered POST goes on SSE; 0: every POST that accepts SSE. */
  sseAfter: number;
  /** Wraps the aggregate's server (--trace, --record). */
  wrapServer?: <Server extends object>(server: Server) => Server;
}

/**
 * Runs `bridge [--http <port>] --config <file> [names...]`: the operands are server names of the
 * file (none: all). Throws UsageError for a URL operand or an option of the URL mode.
 */
export async function runAggregateCommand(
  words: readonly string[],
  options: AggregateCommandOptions,
): Promise<ExitCodeValue> {
  const url = words.find((word) => /^https?:\/\//i.test(word));
  if (url !== undefined)
    throw new UsageError(
      `with --config the operands are server names of the file, not URLs (received "${url}"); add the URL to the config instead`,
    );
  if ((options.header ?? []).length > 0)
    throw new UsageError('--header applies to a URL; with --config, put headers in the config entry');
  if (options.auth === false) throw new UsageError('--no-auth applies to a URL; with --config, leave it out');
  if (options.auth === 'dev' && options.http === undefined)
    throw new UsageError('--auth dev applies with --http <port> (see "mcpwire bridge --help")');
  if (options.auth === 'dev')
    checkDevAuthHost(options.host, options.insecureDevAuthOnNetwork === true, 'mcpwire bridge --auth dev');
  const { runAggregateFront } = await import('./run-aggregate.ts');
  const front: AggregateFront =
    options.http === undefined
      ? { kind: 'stdio' }
      : {
          kind: 'http',
          port: options.http,
          host: options.host,
          ...(options.allowHost === undefined ? {} : { allowedHosts: options.allowHost }),
          ...(options.auth === 'dev' ? { auth: 'dev' as const } : {}),
          maxSessions: options.maxSessions,
          sessionIdleTimeoutMs: options.idleTimeout * 1000,
          // An upstream cannot tell the client to poll through the aggregate: a slow call gets a stream.
          sseAfterMs: options.sseAfter,
        };
  return runAggregateFront(
    { config: options.config, names: words, allow: options.allow ?? [], deny: options.deny ?? [] },
    front,
    options.wrapServer,
  );
}
