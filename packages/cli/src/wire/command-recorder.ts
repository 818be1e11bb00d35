// The recorder behind a client command's --trace, --record <file> and --redact <jsonpath>: none
// when neither is asked for, so a plain command pays nothing.

import type { Target } from '../target/target.ts';
import { openFileSink, WireRecorder, type WireSink } from './recorder.ts';
import { Redactor } from './redact.ts';
import { traceSink } from './trace-sink.ts';

/** The wire options of the client commands (see addTargetOptions). */
export interface WireOptions {
  trace?: boolean;
  record?: string;
  redact?: string[];
}

/**
 * Opens the recorder `options` ask for (the --record file is created now), with `extra` sinks of
 * the command's own; undefined when nothing asks for one.
 */
export async function openCommandRecorder(
  command: string,
  target: Target,
  options: WireOptions,
  extra: readonly WireSink[] = [],
): Promise<WireRecorder | undefined> {
  // Parsed first, so a bad path is a usage error even when nothing is recorded.
  const redactor = new Redactor(options.redact ?? []);
  if (options.trace !== true && options.record === undefined && extra.length === 0) return undefined;
  const sinks: WireSink[] = [...extra];
  if (options.record !== undefined) sinks.push(await openFileSink(options.record));
  if (options.trace === true) sinks.push(traceSink());
  const described = target.kind === 'stdio' ? [target.command, ...target.args].join(' ') : target.url;
  return new WireRecorder(
    { recorder: `mcpwire ${command}`, transport: target.kind, target: described },
    { sinks, redactor },
  );
}
