// The doctor run behind the command: resolve the target, record the wire in memory (and to
// --record / --trace when asked), run the steps, print the verdict (or the steps as JSON).

import { coloursFor } from '../../terminal/colours.ts';
import type { ExitCodeValue } from '../../exit-code.ts';
import type { TargetCommandOptions } from '../../target/one-shot.ts';
import { resolveCommandTarget } from '../../target/target.ts';
import { toTerminalJson, toTerminalText } from '../../terminal/terminal-text.ts';
import { openCommandRecorder } from '../../wire/command-recorder.ts';
import type { EventEntry } from '../../wire/transcript.ts';
import { UsageError } from '../../exit-code.ts';
import { authOf } from '../../oauth/auth-options.ts';
import { createAuthWalk } from './auth-steps.ts';
import { Checklist } from './checklist.ts';
import { runDoctor } from './run.ts';

/** Runs the doctor on `operand`; resolves with the exit code. */
export async function doctor(
  operand: string,
  commandAfterDash: readonly string[] | undefined,
  options: TargetCommandOptions,
): Promise<ExitCodeValue> {
  const target = await resolveCommandTarget(operand, commandAfterDash, options);
  const { auth } = authOf(options);
  if (auth !== undefined && target.kind !== 'http')
    throw new UsageError('--auth walks the OAuth flow of a URL target; a server over stdio has none');
  const entries: EventEntry[] = [];
  const isJson = options.json === true;
  const colours = coloursFor(process.stdout);
  const list = new Checklist(isJson ? () => {} : (text) => process.stdout.write(text), colours);
  const walk = auth === undefined || target.kind !== 'http' ? undefined : createAuthWalk(list, target.url);
  const recorder = (await openCommandRecorder('doctor', target, options, [
    { entry: (entry) => entries.push(entry) },
    ...(walk === undefined ? [] : [walk]),
  ]))!;
  if (!isJson) process.stdout.write(`${colours.bold('mcpwire doctor')} ${toTerminalText(target.label)}\n`);
  let code: ExitCodeValue;
  try {
    code = await runDoctor(
      target,
      {
        era: options.era,
        timeoutMs: options.timeout * 1000,
        ...(options.maxMessageSize === undefined ? {} : { maxMessageBytes: options.maxMessageSize }),
        recorder,
        entries,
        ...(auth === undefined || walk === undefined
          ? {}
          : {
              // A walk shows the whole flow: nothing stored is reused unless --token-store says so.
              auth: { ...auth, isStoreless: true, onAuthorization: (event) => walk.onAuthorization(event) },
              authWalk: walk,
            }),
      },
      list,
    );
  } finally {
    await recorder.close();
  }
  const failed = list.failed;
  if (isJson)
    process.stdout.write(
      `${toTerminalJson(JSON.stringify({ ok: failed === undefined, steps: list.results }, null, 2))}\n`,
    );
  else
    process.stdout.write(
      failed === undefined
        ? colours.green('all steps passed\n')
        : colours.red(`failed at step "${toTerminalText(failed.step)}"\n`),
    );
  return code;
}
