// What the terminal shows while a request is in flight in `mcpwire connect`: a spinner, a progress
// bar once the server reports progress with a total, and room for the prompts the server's own
// requests (elicitation, sampling) need in the middle of a call.

import { progress, settings, spinner } from '@clack/prompts';
import type { Progress } from 'mcpwire/client';
import { toTerminalText } from '../../terminal/terminal-text.ts';

type Indicator = ReturnType<typeof spinner> | ReturnType<typeof progress>;

/** The keys clack takes as "cancel" (Ctrl-C, Escape): its spinner would end the process on them. */
const CANCEL_KEYS = ['\x03', 'escape'];

/**
 * One indicator at a time; `aside` lends the terminal to a prompt and puts the indicator back.
 * While an indicator shows, the terminal is in raw mode (clack's spinner reads keys so typing does
 * not garble it) and would exit the process on Ctrl-C: those keys call `onCancel` instead.
 */
export class CallActivity {
  #label = '';
  #onCancel: () => void = () => {};
  #indicator: Indicator | undefined;
  #total: number | undefined;
  #done = 0;
  #isRunning = false;

  /** Shows a spinner labelled `label` until {@link stop}; Ctrl-C or Escape meanwhile call `onCancel`. */
  start(label: string, onCancel: () => void): void {
    this.#label = label;
    this.#onCancel = onCancel;
    this.#total = undefined;
    this.#done = 0;
    this.#isRunning = true;
    this.#show();
  }

  /** Moves the bar to `update.progress` (switching from the spinner when a total first arrives). */
  progress(update: Progress): void {
    if (!this.#isRunning) return;
    // The server's words: shown escaped (a progress message is peer text like any other).
    const message = toTerminalText(
      update.message ?? `${update.progress}${update.total === undefined ? '' : ` of ${update.total}`}`,
    );
    if (update.total !== undefined && this.#total === undefined) {
      this.#indicator?.clear();
      this.#total = update.total;
      this.#done = 0;
      this.#show();
    }
    if (this.#total !== undefined && 'advance' in this.#indicator!) {
      const step = Math.max(0, Math.min(update.progress, this.#total) - this.#done);
      this.#done += step;
      this.#indicator.advance(step, `${this.#label}: ${message}`);
    } else this.#indicator?.message(`${this.#label}: ${message}`);
  }

  /** Removes the indicator. */
  stop(): void {
    this.#isRunning = false;
    this.#hide();
  }

  /** Runs `prompt` with the indicator out of the way, then shows it again if the call still runs. */
  async aside<T>(prompt: () => Promise<T>): Promise<T> {
    const wasRunning = this.#isRunning;
    this.#hide();
    try {
      return await prompt();
    } finally {
      if (wasRunning && this.#isRunning) this.#show();
    }
  }

  readonly #handleKey = (
    _text: string | undefined,
    key: { name?: string; sequence?: string } | undefined,
  ): void => {
    if (key?.sequence === '\x03' || key?.name === 'escape') this.#onCancel();
  };

  #hide(): void {
    if (this.#indicator === undefined) return;
    this.#indicator.clear();
    this.#indicator = undefined;
    process.stdin.removeListener('keypress', this.#handleKey);
    for (const key of CANCEL_KEYS) settings.aliases.set(key, 'cancel');
  }

  #show(): void {
    for (const key of CANCEL_KEYS) settings.aliases.delete(key);
    process.stdin.on('keypress', this.#handleKey);
    if (this.#total === undefined) {
      this.#indicator = spinner();
      this.#indicator.start(this.#label);
      return;
    }
    const bar = progress({ max: this.#total, style: 'heavy' });
    bar.start(this.#label);
    if (this.#done > 0) bar.advance(this.#done);
    this.#indicator = bar;
  }
}
