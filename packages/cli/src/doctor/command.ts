// The doctor run behind the command: resolve the target, record the wire in memory (and to
// --record / --trace when asked), run the steps, print the verdict (or the steps as JSON).

import { coloursFor } from '../colours.ts';
import type { ExitCodeValue } from '../exit-code.ts';
import type { TargetCommandOptions } from '../one-shot.ts';
import { resolveTarget } from '../target/target.ts';
import { openCommandRecorder } from '../wire/command-recorder.ts';
import type { EventEntry } from '../wire/transcript.ts';
import { Checklist } from './checklist.ts';
import { runDoctor } from './run.ts';

/** Runs the doctor on `operand`; resolves with the exit code. */
export async function doctor(
  operand: string,
  commandAfterDash: readonly string[] | undefined,
  options: TargetCommandOptions,
): Promise<ExitCodeValue> {
  const target = resolveTarget(operand, {
    commandAfterDash,
    config: options.config,
    headers: options.header,
  });
  const entries: EventEntry[] = [];
  const recorder = (await openCommandRecorder('doctor', target, options, [
    { entry: (entry) => entries.push(entry) },
  ]))!;
  const isJson = options.json === true;
  const colours = coloursFor(process.stdout);
  const list = new Checklist(isJson ? () => {} : (text) => process.stdout.write(text), colours);
  if (!isJson) process.stdout.write(`${colours.bold('mcpwire doctor')} ${target.label}\n`);
  let code: ExitCodeValue;
  try {
    code = await runDoctor(
      target,
      { era: options.era, timeoutMs: options.timeout * 1000, recorder, entries },
      list,
    );
  } finally {
    await recorder.close();
  }
  const failed = list.failed;
  if (isJson)
    process.stdout.write(`${JSON.stringify({ ok: failed === undefined, steps: list.results }, null, 2)}\n`);
  else
    process.stdout.write(
      failed === undefined
        ? colours.green('all steps passed\n')
        : colours.red(`failed at step "${failed.step}"\n`),
    );
  return code;
}
