// The demo's verdicts: each step checks that what crossed the wire is what the protocol requires;
// the command exits 0 only when every check passed.

import type { DemoPrinter } from '../../terminal/demo-printer.ts';

/** The checks of one run, printed as they are made. */
export class Checks {
  readonly failures: string[] = [];
  #passed = 0;
  readonly #printer: DemoPrinter;

  constructor(printer: DemoPrinter) {
    this.#printer = printer;
  }

  /** Records and prints one check; returns `isOk`. */
  expect(isOk: boolean, text: string): boolean {
    this.#printer.check(isOk, text);
    if (isOk) this.#passed += 1;
    else this.failures.push(text);
    return isOk;
  }

  /** Records a step that could not run to its end (an exception), as a failure. */
  fail(text: string): void {
    this.expect(false, text);
  }

  /** Checks passed so far. */
  get passed(): number {
    return this.#passed;
  }

  /** Checks made so far. */
  get total(): number {
    return this.#passed + this.failures.length;
  }
}
