// `mcpwire connect`: connects with handlers that ask the person, then a menu until they quit
// (q or Ctrl-D at the menu: exit 0; Ctrl-C: 130). A failed action is shown and the session goes on, unless
// the connection itself is gone (exit 3).

import { intro, isCancel, log, outro, selectKey, spinner, updateSettings } from '@clack/prompts';
import { ConnectionClosedError } from 'mcpwire/client';
import { coloursFor } from '../../terminal/colours.ts';
import { ExitCode, type ExitCodeValue } from '../../exit-code.ts';
import type { TargetCommandOptions } from '../../target/one-shot.ts';
import { authOf } from '../../oauth/auth-options.ts';
import { openClient, toCliError } from '../../target/open-client.ts';
import { openCommandRecorder } from '../../wire/command-recorder.ts';
import { resolveCommandTarget } from '../../target/target.ts';
import { toTerminalText } from '../../terminal/terminal-text.ts';
import {
  callTool,
  completeArgument,
  getPrompt,
  listEverything,
  readResource,
  type ActionContext,
} from './actions.ts';
import { CallActivity } from './call-activity.ts';
import { createInteractiveHandlers } from './server-requests.ts';

/** The menu: each entry's key is its value's first letter. */
const MENU = [
  { value: 't', label: 'call a tool', needs: 'tools', run: callTool },
  { value: 'r', label: 'read a resource', needs: 'resources', run: readResource },
  { value: 'p', label: 'get a prompt', needs: 'prompts', run: getPrompt },
  { value: 'c', label: 'complete an argument', needs: 'completions', run: completeArgument },
  { value: 'a', label: 'list everything', needs: undefined, run: listEverything },
] as const;

/** Runs the session; resolves with 0 when the person quits (q, Ctrl-D), 130 on Ctrl-C at the menu, 3 when the connection is lost. */
export async function runConnect(
  operand: string,
  commandAfterDash: readonly string[] | undefined,
  options: TargetCommandOptions,
): Promise<ExitCodeValue> {
  const target = await resolveCommandTarget(operand, commandAfterDash, options);
  // Ctrl-D (end of input) cancels a prompt as Ctrl-C does: at the menu, it quits.
  updateSettings({ aliases: { '\x04': 'cancel' } });
  const colours = coloursFor(process.stdout);
  const activity = new CallActivity();
  intro(`mcpwire connect ${toTerminalText(target.label)}`);
  const connecting = spinner();
  connecting.start('Connecting');
  const recorder = await openCommandRecorder('connect', target, options);
  // Declared before the client, so disposed after it: the transcript ends with the server's exit.
  await using _recording = { [Symbol.asyncDispose]: async () => recorder?.close() };
  let opened: Awaited<ReturnType<typeof openClient>>;
  try {
    opened = await openClient(target, {
      ...(recorder === undefined ? {} : { recorder }),
      era: options.era,
      timeoutMs: options.timeout * 1000,
      ...(options.maxMessageSize === undefined ? {} : { maxMessageBytes: options.maxMessageSize }),
      isVerbose: options.verbose === true,
      handlers: createInteractiveHandlers(activity, colours),
      ...authOf(options),
    });
  } catch (error) {
    connecting.error('Could not connect');
    throw error;
  }
  await using _closing = opened;
  const { client } = opened;
  connecting.stop(
    toTerminalText(
      `Connected to ${client.serverInfo?.name ?? '?'} ${client.serverInfo?.version ?? ''} (protocol ${client.protocolVersion ?? '?'})`,
    ),
  );
  if (client.instructions) log.info(colours.dim(toTerminalText(client.instructions, { keepNewlines: true })));
  const context: ActionContext = { client, activity, colours };
  const capabilities = client.serverCapabilities ?? {};
  const entries = MENU.filter(
    (entry) => entry.needs === undefined || capabilities[entry.needs] !== undefined,
  );
  // Ctrl-D and Ctrl-C both cancel a clack prompt; only the keypress tells them apart (130 vs 0).
  let isInterrupted = false;
  const watchCtrlC = (_text: string, key: { ctrl?: boolean; name?: string } | undefined): void => {
    if (key?.ctrl === true && key.name === 'c') isInterrupted = true;
  };
  for (;;) {
    isInterrupted = false;
    process.stdin.on('keypress', watchCtrlC);
    const choice = await selectKey({
      message: 'What next?',
      options: [...entries.map(({ value, label }) => ({ value, label })), { value: 'q', label: 'quit' }],
    });
    process.stdin.removeListener('keypress', watchCtrlC);
    if (isCancel(choice) && isInterrupted) {
      outro('Interrupted.');
      return ExitCode.interrupted;
    }
    if (isCancel(choice) || choice === 'q') break;
    try {
      await entries.find((entry) => entry.value === choice)!.run(context);
    } catch (error) {
      activity.stop();
      const failure = toCliError(error, 'failed', opened.stderrTail());
      log.error(toTerminalText(failure.message.replace(/^failed: /, ''), { keepNewlines: true }));
      if (error instanceof ConnectionClosedError || !client.isConnected) {
        outro('The connection is closed.');
        return ExitCode.connection;
      }
    }
  }
  outro('Bye.');
  return ExitCode.ok;
}
