// The `<target>` operand and the options of every command that talks to a server, declared once.

import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import type { ExitCodeValue } from '../exit-code.ts';
import type { OneShot, TargetCommandOptions } from './one-shot.ts';
import type { ProgramContext } from '../program-context.ts';
import { eraParser } from '../arguments/era-parser.ts';
import { parseSeconds } from '../arguments/option-values.ts';

/** The help text of the `<target>` operand. */
export const TARGET_DESCRIPTION =
  'a server name from a host config file (yours first; one only a config in the current folder defines runs once approved, see --trust-project-config), or an http(s) URL; or leave it out and end the command line with "--" and the command that starts the server over stdio';

/**
 * What --help says passes to a stdio server by default; the list is mcpwire/stdio's
 * POSIX_INHERITED_ENV (a test holds them equal), written out so that --help loads no transport.
 */
export const ENV_DEFAULT_NOTE =
  'By default a server gets only HOME, LOGNAME, PATH, SHELL, TERM, USER, LANG, LC_ALL, TZ, TMPDIR of your ' +
  'environment (and a host config\'s "env"), so that secrets in your environment do not leak to every server';

/** The default --timeout of the commands that talk to a server (doctor has its own, shorter one). */
export const DEFAULT_TIMEOUT_SECONDS = 60;

/** The `<target>` operand, first after the command name. */
export function targetArgument(): Argument {
  return new Argument('<target>', TARGET_DESCRIPTION);
}

/**
 * Adds --config, --header, --era, --timeout, --env, --pass-env, --verbose, the wire options and the OAuth options (and
 * --json when `hasJson`). OAuth runs unless --no-auth; with `isAuthOptIn` (doctor) only with --auth.
 * --timeout defaults to `defaultTimeoutSeconds` (60 unless given).
 */
export function addTargetOptions(
  command: Command,
  {
    hasJson,
    isAuthOptIn = false,
    defaultTimeoutSeconds = DEFAULT_TIMEOUT_SECONDS,
  }: { hasJson: boolean; isAuthOptIn?: boolean; defaultTimeoutSeconds?: number },
): Command {
  command
    .option('--config <file>', 'look the target name up in this host config file only')
    .option(
      '--trust-project-config',
      'run a server that only a config in the current folder (.mcp.json, .cursor/mcp.json, .vscode/mcp.json) defines, without asking; otherwise it is asked once on a terminal (remembered until the file changes) and refused (exit 2) off one',
    )
    .option(
      '-H, --header <name:value>',
      'an HTTP header for URL targets (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addOption(
      new Option('--era <era>', 'which protocol era to speak')
        .choices(['auto', 'handshake', 'stateless'])
        .argParser(eraParser(['auto', 'handshake', 'stateless']))
        .default('auto'),
    )
    .option(
      '--timeout <seconds>',
      'how long to wait for the server: over stdio the whole command (start, handshake, request) shares this budget; over HTTP each answer has it',
      parseSeconds,
      defaultTimeoutSeconds,
    )
    .option(
      '-e, --env <KEY=VALUE>',
      `set a variable in the environment of a server started over stdio (repeatable). ${ENV_DEFAULT_NOTE}`,
      collect,
    )
    .option(
      '--pass-env <KEY[,KEY]>',
      'pass these variables of your environment on to a server started over stdio (repeatable)',
      collect,
    )
    .option(
      '--max-message-size <bytes>',
      'the largest message accepted from a server started over stdio (default 64 MiB); a larger one fails its request at once',
      parseBytes,
    )
    .option('--verbose', "show the server's stderr as it is written (stdio targets) and client diagnostics")
    .option('--trace', 'show every message and transport event on stderr as it crosses the wire')
    .option('--record <file.jsonl>', 'write a transcript of the connection (for lint, replay, report)')
    .option(
      '--redact <jsonpath>',
      'also redact this value in --trace and --record, e.g. $.params.arguments.password (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    );
  addAuthOptions(command, isAuthOptIn);
  if (hasJson) command.option('--json', 'print only the result, as JSON, on stdout');
  return command;
}

/** Adds the OAuth options of URL targets: --no-auth (or --auth), --client-id/--client-secret, --scope, --token-store. */
export function addAuthOptions(command: Command, isOptIn: boolean): Command {
  if (isOptIn)
    command.option(
      '--auth',
      'walk the OAuth flow step by step: the 401, each metadata request, registration, the authorization URL, the token request, the retried call',
    );
  else command.option('--no-auth', 'never run OAuth: a 401 from the server ends the command (exit 3)');
  return command
    .option('--client-id <id>', 'OAuth: a client registered with the authorization server beforehand')
    .addOption(
      new Option(
        '--client-secret <secret>',
        'OAuth: the secret of --client-id (better: the environment variable)',
      ).env('MCPWIRE_CLIENT_SECRET'),
    )
    .option(
      '--scope <scopes>',
      'OAuth: the scopes to ask for (space-separated), instead of what the server suggests',
    )
    .option(
      '--token-store <file>',
      'OAuth: keep registrations and tokens in this file (owner-only); default one file per server in your data directory',
    )
    .option(
      '--auth-timeout <seconds>',
      'OAuth: how long to wait for the browser to come back',
      parseSeconds,
      300,
    )
    .option(
      '--allow-private-auth',
      'OAuth: let a public server name metadata or endpoints on loopback or private addresses',
    );
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function parseBytes(value: string): number {
  const bytes = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(Number.isSafeInteger(bytes) && bytes > 0))
    throw new InvalidArgumentError('expected a number of bytes above 0.');
  return bytes;
}

/**
 * Runs a one-shot command's `work` against `operand` (loading the client only now) and sets the
 * process's exit code from it; `doing` starts the message of a failure.
 */
export async function runOneShotCommand(
  operand: string,
  context: ProgramContext,
  options: TargetCommandOptions,
  doing: string,
  work: (oneShot: OneShot) => Promise<ExitCodeValue>,
): Promise<void> {
  const { runOneShot } = await import('./one-shot.ts');
  process.exitCode = await runOneShot(operand, context.commandAfterDash, options, doing, work);
}
