// `mcpwire replay <transcript>`: a mock server answering from a recording (stdio, or Streamable HTTP
// with --http), or with --check the recorded client side run against a live server, every response
// compared with the recorded one.

import { type Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';
import { ExitCode, UsageError, type ExitCodeValue } from '../../exit-code.ts';
import { ENV_DEFAULT_NOTE, TARGET_DESCRIPTION } from '../../target/target-options.ts';
import { COMMAND_TARGET } from '../../target/command-target.ts';
import { parsePort, parseSeconds } from '../../arguments/option-values.ts';

/** After the stdio mock has finished, how long stray handles may keep the process alive. */
const EXIT_GRACE_MS = 500;

interface ReplayOptions {
  http?: boolean;
  port?: number;
  check?: boolean;
  ignore?: string[];
  timeout?: number;
  header?: string[];
  config?: string;
  trustProjectConfig?: boolean;
  verbose?: boolean;
  env?: string[];
  passEnv?: string[];
}

/** The `replay` command. */
export function replayCommand(): Command {
  const command = defineCommand('replay')
    .summary('serve a recorded transcript as a mock server, or --check a live server against it')
    .description(
      'Serve a transcript (from --record or mcpwire tap) as a mock server: each request is answered with ' +
        'the recorded response to the recorded request of the same method and params (progress tokens and ' +
        "the client's info aside), else the next unused one naming the same tool, prompt or URI. Over stdio " +
        'by default (nothing but JSON-RPC on stdout), or Streamable HTTP on 127.0.0.1 with --http. ' +
        'With --check, send the recorded client messages to a live server instead and compare every response ' +
        'with the recorded one: exit 0 when all are the same, 1 when any differs, 3 when the server cannot be reached.',
    )
    .argument('<transcript>', 'the transcript file (JSONL)')
    .argument('[target]', `with --check: the live server; ${TARGET_DESCRIPTION}`)
    .option(
      '--http',
      'serve over Streamable HTTP on 127.0.0.1 instead of stdio; the URL is printed on stderr',
    )
    .option('--port <port>', 'with --http: the port to listen on (0, the default: any free port)', parsePort)
    .option(
      '--check',
      'run the recorded client side against <target> (or the command after "--") and compare',
    )
    .option(
      '--ignore <jsonpath>',
      'with --check: also ignore this part of every response, e.g. $.result.content[0].text or $..timestamp (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--timeout <seconds>',
      'with --check: how long to wait for each response (default 60)',
      parseSeconds,
    )
    .option(
      '-H, --header <name:value>',
      'with --check and a URL target: an HTTP header (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--config <file>', 'with --check: look the target name up in this host config file only')
    .option(
      '--trust-project-config',
      'with --check: run a server only a config in the current folder defines, without asking',
    )
    .option(
      '-e, --env <KEY=VALUE>',
      `with --check: set a variable in the environment of a server started over stdio (repeatable). ${ENV_DEFAULT_NOTE}`,
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--pass-env <KEY[,KEY]>',
      'with --check: pass these variables of your environment on to a server started over stdio (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--verbose', "with --check: show a stdio server's stderr as it is written")
    // The words after `--` arrive as extra operands (see operandsOf).
    .allowExcessArguments()
    .action(async (file: string, _target: unknown, options: ReplayOptions, self: Command) => {
      const { target, afterDash } = operandsOf(self);
      checkOptions(options, target, afterDash);
      process.exitCode = await runReplay(file, target, afterDash, options);
    });
  return addExamples(command, [
    ['mcpwire list --record tools.jsonl -- mcpwire serve everything', 'record a session first'],
    ['mcpwire list -- mcpwire replay tools.jsonl', 'the recording as a stdio server'],
    ['mcpwire replay tools.jsonl --http --port 3000', 'the recording at http://127.0.0.1:3000/mcp'],
    [
      'mcpwire replay tools.jsonl --check -- node ./my-server.js',
      'has the server changed since the recording?',
    ],
    [
      "mcpwire replay session.jsonl --check http://127.0.0.1:3000/mcp --ignore '$..timestamp'",
      'the same against a URL, a volatile field left out',
    ],
  ]);
}

/**
 * The `[target]` operand and the server command after `--`. Main leaves `--` to commander for this
 * command (its first operand is the transcript, not the target), and commander passes the words
 * after `--` on as operands; the raw command line tells them from a target given before `--`.
 */
function operandsOf(self: Command): { target: string | undefined; afterDash: string[] | undefined } {
  // `rawArgs`: what the root command was given to parse (commander keeps it, untyped).
  const raw = (self.parent as { rawArgs?: readonly string[] } | null)?.rawArgs ?? [];
  const dash = raw.indexOf('--');
  const afterDash = dash < 0 ? undefined : raw.slice(dash + 1);
  const rest = self.args.slice(1);
  const before = rest.slice(0, rest.length - (afterDash?.length ?? 0));
  if (before.length > 1)
    throw new UsageError(
      `expected at most one target after the transcript, received ${before.join(' ')}; put a server command after "--" (see "mcpwire replay --help")`,
    );
  return { target: before[0], afterDash };
}

function checkOptions(
  options: ReplayOptions,
  target: string | undefined,
  afterDash: string[] | undefined,
): void {
  const hint = '(see "mcpwire replay --help")';
  if (options.check === true) {
    if (options.http === true || options.port !== undefined)
      throw new UsageError(
        `--http and --port serve the mock; --check runs against a live server, not both ${hint}`,
      );
    if (target === undefined && afterDash === undefined)
      throw new UsageError(
        `--check needs the live server: a URL, a host config name, or "--" and the command that starts it ${hint}`,
      );
    return;
  }
  const checkOnly = (
    ['ignore', 'timeout', 'header', 'config', 'trustProjectConfig', 'verbose', 'env', 'passEnv'] as const
  ).filter((name) => options[name] !== undefined);
  if (checkOnly.length > 0)
    throw new UsageError(
      `${checkOnly.map((name) => `--${name.replace(/[A-Z]/g, (upper) => `-${upper.toLowerCase()}`)}`).join(', ')} ${checkOnly.length === 1 ? 'applies' : 'apply'} with --check ${hint}`,
    );
  const server =
    target === undefined ? (afterDash === undefined ? undefined : 'the command after "--"') : `"${target}"`;
  if (server !== undefined)
    throw new UsageError(
      `${server} is a server to check: add --check (without it, the transcript itself is served) ${hint}`,
    );
  if (options.port !== undefined && options.http !== true)
    throw new UsageError(`--port applies with --http ${hint}`);
}

async function runReplay(
  file: string,
  target: string | undefined,
  afterDash: string[] | undefined,
  options: ReplayOptions,
): Promise<ExitCodeValue> {
  // Loaded on demand: `mcpwire --help` never reads a transcript or loads a transport.
  const { readTranscript } = await import('./read-transcript.ts');
  const { ReplayBook } = await import('./replay-book.ts');
  if (options.check === true) {
    // Before the transcript is read: a bad --ignore or target is a usage error either way.
    const { IgnoredPaths } = await import('./ignored-paths.ts');
    const { resolveCommandTarget } = await import('../../target/target.ts');
    const ignored = IgnoredPaths.withPerRun(options.ignore);
    const resolved = await resolveCommandTarget(target ?? COMMAND_TARGET, afterDash, options);
    const transcript = await readTranscript(file);
    const { runReplayCheck } = await import('./run-replay-check.ts');
    return runReplayCheck(transcript, resolved, {
      file,
      ignored,
      timeoutMs: (options.timeout ?? 60) * 1000,
      isVerbose: options.verbose === true,
    });
  }
  const book = ReplayBook.fromTranscript(await readTranscript(file), 'client');
  const { serveReplayHttp, serveReplayStdio } = await import('./serve-replay.ts');
  if (options.http === true) {
    await serveReplayHttp(book, { port: options.port ?? 0, file });
    return ExitCode.ok;
  }
  await serveReplayStdio(book);
  // Leave even if something still holds a timer (STDIO-2: exit when stdin closes).
  setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
  return ExitCode.ok;
}
