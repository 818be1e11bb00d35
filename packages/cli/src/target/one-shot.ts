// The frame of every one-shot command (list, call, read, get, complete): resolve the target, connect,
// run one piece of work, close; Ctrl-C cancels what is in flight (exit 130), failures become exit codes.

import type { Client, ClientExtension, EraChoice } from 'mcpwire/client';
import { coloursFor, type Colours } from '../terminal/colours.ts';
import type { ExitCodeValue } from '../exit-code.ts';
import { authOf, type AuthCommandOptions } from '../oauth/auth-options.ts';
import { Deadline } from './deadline.ts';
import { openClient, toCliError } from './open-client.ts';
import { toTerminalJson } from '../terminal/terminal-text.ts';
import { resolveCommandTarget, type Target } from './target.ts';
import { openCommandRecorder, type WireOptions } from '../wire/command-recorder.ts';
import { toCappedJson } from '../wire/json-depth.ts';

/** The options every target-taking command accepts (see target-options.ts). */
export interface TargetCommandOptions extends WireOptions, AuthCommandOptions {
  config?: string;
  header?: string[];
  /** `--trust-project-config`. */
  trustProjectConfig?: boolean;
  era: EraChoice;
  /** Seconds. */
  timeout: number;
  /** `-e KEY=VALUE`, in order (later wins). */
  env?: string[];
  /** `--pass-env KEY[,KEY]`, in order. */
  passEnv?: string[];
  /** `--max-message-size <bytes>`: the stdio client's line limit. */
  maxMessageSize?: number;
  verbose?: boolean;
  json?: boolean;
  /** Set by a command, not an option: loads the extensions its client declares (e.g. `call --task`). */
  loadExtensions?: () => Promise<readonly ClientExtension[]>;
}

/** What a one-shot command's work gets. */
export interface OneShot {
  client: Client;
  target: Target;
  /** Aborts on Ctrl-C, and over stdio when the --timeout budget runs out: pass it to the request. */
  signal: AbortSignal;
  isJson: boolean;
  /** For stdout. */
  colours: Colours;
  /** Writes text to stdout as it is: a server's strings in it went through toTerminalText already. */
  print(text: string): void;
  /** Writes `value` as indented JSON and a newline to stdout (toTerminalJson: the same JSON value). */
  printJson(value: unknown): void;
}

/**
 * Connects to `operand` (see resolveCommandTarget), runs `work`, closes the connection (ending a spawned
 * server) and resolves with work's exit code. A failure rejects with a CliError whose message starts
 * with `doing` (see toCliError for the exit codes).
 */
export async function runOneShot(
  operand: string,
  commandAfterDash: readonly string[] | undefined,
  options: TargetCommandOptions,
  doing: string,
  work: (oneShot: OneShot) => Promise<ExitCodeValue>,
): Promise<ExitCodeValue> {
  const target = await resolveCommandTarget(operand, commandAfterDash, options);
  const recorder = await openCommandRecorder(doing, target, options);
  const controller = new AbortController();
  const interrupt = (): void => controller.abort('interrupted (Ctrl-C)');
  process.once('SIGINT', interrupt);
  // Over stdio, --timeout is the budget of the whole command: the connection and the work share it.
  // Not over HTTP, where connecting may wait for a person signing in with OAuth in a browser.
  using deadline = target.kind === 'stdio' ? new Deadline(options.timeout) : undefined;
  const signal = deadline === undefined ? controller.signal : deadline.with(controller.signal);
  try {
    const extensions = await options.loadExtensions?.();
    await using opened = await openClient(target, {
      ...(recorder === undefined ? {} : { recorder }),
      ...(extensions === undefined ? {} : { extensions }),
      era: options.era,
      timeoutMs: options.timeout * 1000,
      isVerbose: options.verbose === true,
      signal: controller.signal,
      ...(deadline === undefined ? {} : { deadline }),
      ...(options.maxMessageSize === undefined ? {} : { maxMessageBytes: options.maxMessageSize }),
      ...authOf(options),
    });
    const colours = coloursFor(process.stdout);
    try {
      return await work({
        client: opened.client,
        target,
        signal,
        isJson: options.json === true,
        colours,
        print: (text) => process.stdout.write(text),
        printJson: (value) => process.stdout.write(`${toTerminalJson(toCappedJson(value, 2))}\n`),
      });
    } catch (error) {
      throw toCliError(error, doing, opened.stderrTail());
    }
  } finally {
    process.removeListener('SIGINT', interrupt);
    // After the connection closed (the `await using` above): the exit is in the transcript.
    await recorder?.close();
  }
}
