// `mcpwire replay <transcript> --check <target>`: opens a raw channel to the live server (a stdio
// process, or Streamable HTTP), runs the check, prints it on stdout and says which exit code it earns.

import type { Channel, Transport } from 'mcpwire';
import { SseClientTransport, StreamableHttpClientTransport } from 'mcpwire/http';
import { StdioClientTransport } from 'mcpwire/stdio';
import { coloursFor } from '../../terminal/colours.ts';
import { ExitCode, type ExitCodeValue } from '../../exit-code.ts';
import { toCliError } from '../../target/open-client.ts';
import type { Target } from '../../target/target.ts';
import type { Transcript } from '../../wire/transcript.ts';
import { formatChecked, formatSummary } from './check-report.ts';
import { isIdentical, runCheck } from './check-run.ts';
import type { IgnoredPaths } from './ignored-paths.ts';

/** How much of a stdio server's stderr is kept to explain its failure. */
const STDERR_TAIL = 4000;

/** What the check needs besides the transcript and the target. */
export interface ReplayCheckOptions {
  /** The transcript's name, for the first line. */
  file: string;
  ignored: IgnoredPaths;
  timeoutMs: number;
  /** Show a stdio server's stderr as it is written; otherwise it is kept and shown only on failure. */
  isVerbose: boolean;
}

/**
 * Checks `transcript` against `target`: exit 0 when every response is the recorded one, 1 when any
 * differs, is missing or the server asked something unrecorded. Rejects with CliError exit 3 when
 * the server cannot be reached or the connection fails midway (the stderr tail of a stdio server
 * in the message). The connection is closed before it resolves (a spawned server is stopped).
 */
export async function runReplayCheck(
  transcript: Transcript,
  target: Target,
  options: ReplayCheckOptions,
): Promise<ExitCodeValue> {
  let tail = '';
  const stderr = options.isVerbose
    ? (text: string) => process.stderr.write(text)
    : (text: string) => (tail = (tail + text).slice(-STDERR_TAIL));
  const doing = `replay --check against ${target.label}`;
  const colours = coloursFor(process.stdout);
  let channel: Channel | undefined;
  try {
    channel = await createTransport(target, stderr).connect();
    process.stdout.write(`${colours.bold(`Replaying ${options.file} against ${target.label}`)}\n`);
    const report = await runCheck(transcript, channel, {
      timeoutMs: options.timeoutMs,
      ignored: options.ignored,
      onChecked: (checked) => process.stdout.write(formatChecked(checked, colours)),
    });
    process.stdout.write(formatSummary(report, colours));
    return isIdentical(report) ? ExitCode.ok : ExitCode.failed;
  } catch (error) {
    throw toCliError(error, doing, tail);
  } finally {
    await channel?.close().catch(() => {});
  }
}

function createTransport(target: Target, stderr: (text: string) => void): Transport {
  if (target.kind === 'stdio')
    return new StdioClientTransport({
      command: target.command,
      args: target.args,
      env: target.env,
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
      stderr,
    });
  const options = { headers: target.headers, onError: () => {} };
  return target.transport === 'sse'
    ? new SseClientTransport(target.url, options)
    : new StreamableHttpClientTransport(target.url, options);
}
