// What `mcpwire demo` prints: one line per JSON-RPC message with its direction, section headings and
// notes, coloured only when stdout is a terminal.

import * as util from 'node:util';
import type { Frame, Message } from 'mcpwire';
import type { ChannelObserver } from 'mcpwire';

type Style = 'cyan' | 'magenta' | 'bold' | 'dim' | 'yellow' | 'red';

/** Writes the demo's output and counts the messages it has shown. Not thread-safe; one per demo run. */
export class DemoPrinter {
  /** Messages shown, per direction. */
  readonly counts = { sent: 0, received: 0 };
  readonly #write: (text: string) => void;
  readonly #isColoured: boolean;
  readonly #onMessage: (direction: 'sent' | 'received', message: Message) => void;

  /**
   * `write` receives whole lines. Colours are used when `isColoured` and `node:util` has `styleText`
   * (Node 20.12 and later). `onMessage` sees each message after it is printed.
   */
  constructor(options: {
    write: (text: string) => void;
    isColoured: boolean;
    onMessage?: (direction: 'sent' | 'received', message: Message) => void;
  }) {
    this.#write = options.write;
    this.#isColoured = options.isColoured && typeof util.styleText === 'function';
    this.#onMessage = options.onMessage ?? (() => {});
  }

  /** The tap observer: prints every message the host sends and every frame it receives, in wire order. */
  get observer(): ChannelObserver {
    return {
      onSend: (message) => {
        for (const item of Array.isArray(message) ? (message as readonly Message[]) : [message as Message])
          this.#message('sent', item);
      },
      onReceive: (frame) => this.#frame(frame),
    };
  }

  /** A section heading. */
  heading(text: string): void {
    this.#write(`\n${this.#style('bold', `== ${text}`)}\n`);
  }

  /** A note about what just happened (indented, dimmed). */
  note(text: string): void {
    this.#write(`${this.#style('dim', `   ${text}`)}\n`);
  }

  /** A plain line. */
  line(text: string): void {
    this.#write(`${text}\n`);
  }

  #frame(frame: Frame): void {
    if (frame.type === 'message') this.#message('received', frame.message);
    else if (frame.type === 'batch') for (const item of frame.items) this.#frame(item);
    else
      this.#write(
        `${this.#style('red', 'server -> host (invalid)')} ${JSON.stringify(frame.response.error)}\n`,
      );
  }

  #message(direction: 'sent' | 'received', message: Message): void {
    this.counts[direction] += 1;
    const label =
      direction === 'sent' ? this.#style('cyan', 'host -> server') : this.#style('magenta', 'server -> host');
    this.#write(`${label} ${JSON.stringify(message)}\n`);
    this.#onMessage(direction, message);
  }

  #style(style: Style, text: string): string {
    return this.#isColoured ? util.styleText(style, text) : text;
  }
}
