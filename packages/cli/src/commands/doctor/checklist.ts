// The doctor's steps and how they are printed: one line per step with its verdict, and under a
// failure the cause and what to change. A step that cannot run because an earlier one failed is
// listed as skipped, so the output always names the first step that failed.

import type { Colours } from '../../terminal/colours.ts';
import { toTerminalText } from '../../terminal/terminal-text.ts';

/** `ok`, `warn` (works, but fix it), `fail`, `skip` (not run: an earlier step failed, or not offered). */
export type Verdict = 'ok' | 'warn' | 'fail' | 'skip';

/** One step's result. */
export interface StepResult {
  /** A short name: `command`, `dns`, `tcp`, `tls`, `endpoint`, `stdout`, `era`, `handshake`, `tools`, ... */
  step: string;
  verdict: Verdict;
  /** What was found. */
  detail: string;
  /** What to change (failures and warnings). */
  hint?: string;
}

/** Collects step results and prints each as it is settled. */
export class Checklist {
  readonly results: StepResult[] = [];
  readonly #write: (text: string) => void;
  readonly #colours: Colours;

  constructor(write: (text: string) => void, colours: Colours) {
    this.#write = write;
    this.#colours = colours;
  }

  /** Records `result` and prints it; its detail and hint may quote the server, so they are escaped first. */
  add(result: StepResult): StepResult {
    this.results.push(result);
    const c = this.#colours;
    const mark = { ok: c.green('✓'), warn: c.yellow('!'), fail: c.red('✗'), skip: c.dim('-') }[
      result.verdict
    ];
    const name = result.step.padEnd(10);
    const text = toTerminalText(result.detail, { keepNewlines: true });
    const detail = result.verdict === 'fail' ? c.red(text) : text;
    this.#write(`${mark} ${c.bold(toTerminalText(name))} ${detail}\n`);
    if (result.hint !== undefined)
      this.#write(
        `  ${' '.repeat(10)} ${c.dim(`hint: ${toTerminalText(result.hint, { keepNewlines: true })}`)}\n`,
      );
    return result;
  }

  ok(step: string, detail: string): StepResult {
    return this.add({ step, verdict: 'ok', detail });
  }

  fail(step: string, detail: string, hint: string): StepResult {
    return this.add({ step, verdict: 'fail', detail, hint });
  }

  /** Lists the steps that could not run after a failure. */
  skip(steps: readonly string[], why: string): void {
    for (const step of steps) this.add({ step, verdict: 'skip', detail: why });
  }

  get failed(): StepResult | undefined {
    return this.results.find((result) => result.verdict === 'fail');
  }
}
