// The usage checks of `bridge --config` (which options apply with it) and its dispatch to a front.

import { UsageError, type ExitCodeValue } from '../../../exit-code.ts';

/** The bridge options `--config` looks at. */
export interface AggregateCommandOptions {
  config: string;
  allow?: string[];
  deny?: string[];
  http?: number;
  header?: string[];
}

/**
 * Runs `bridge --config <file> [names...]`: the operands are server names of the file (none: all).
 * Throws UsageError for a URL operand or an option of the URL mode.
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
  if (options.http !== undefined)
    throw new UsageError(
      '--config with --http is not available yet: serve the aggregate on stdio (leave --http out)',
    );
  const { runAggregateFront } = await import('./run-aggregate.ts');
  return runAggregateFront({
    config: options.config,
    names: words,
    allow: options.allow ?? [],
    deny: options.deny ?? [],
  });
}
