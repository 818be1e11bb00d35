// The progress of a one-shot request on a terminal: one line on stderr redrawn in place with each
// update (`\r`, erase the line, the text cut to the width) and erased when the request ends.

import type { Progress } from 'mcpwire/client';
import { toTerminalText } from './terminal-text.ts';
import { truncateToWidth } from './wrap-text.ts';

/** Back to the start of the line and erase it (CSI 2 K). */
const ERASE_LINE = '\r\x1b[2K';
/** The width assumed for a terminal that does not report one. */
const FALLBACK_COLUMNS = 80;

/** A terminal stream's part the line needs. */
export interface ProgressStream {
  columns?: number;
  write(text: string): unknown;
}

/**
 * The line for one request named `label` (escaped here, as the message is). Updates are drawn in the
 * order given; {@link clear} (or disposal) erases the line once, so the result prints on a clean line.
 */
export class ProgressLine implements Disposable {
  readonly #stream: ProgressStream;
  readonly #label: string;
  #isShown = false;

  constructor(stream: ProgressStream, label: string) {
    this.#stream = stream;
    this.#label = toTerminalText(label);
  }

  /** Draws `update` over the previous one: `label progress/total (percent) message`, one line. */
  show(update: Progress): void {
    const total = update.total === undefined ? '' : `/${Number(update.total)}`;
    const percent =
      update.total === undefined || !(Number(update.total) > 0)
        ? ''
        : ` (${Math.floor((Number(update.progress) / Number(update.total)) * 100)}%)`;
    // The server's words: escaped like any peer text (a progress message may carry controls).
    const message = update.message === undefined ? '' : ` ${toTerminalText(String(update.message))}`;
    const text = `${this.#label} ${Number(update.progress)}${total}${percent}${message}`;
    // One column short of the width: a line that fills it would wrap on some terminals, and `\r`
    // then redraws only its last row.
    const columns =
      this.#stream.columns !== undefined && this.#stream.columns > 0
        ? this.#stream.columns
        : FALLBACK_COLUMNS;
    this.#stream.write(`${ERASE_LINE}${truncateToWidth(text, Math.max(1, columns - 1))}`);
    this.#isShown = true;
  }

  /** Erases the line if one is shown; idempotent. */
  clear(): void {
    if (!this.#isShown) return;
    this.#stream.write(ERASE_LINE);
    this.#isShown = false;
  }

  [Symbol.dispose](): void {
    this.clear();
  }
}
