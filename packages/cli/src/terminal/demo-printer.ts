// What `mcpwire demo` prints: each JSON-RPC message as it crosses the wire (direction, id
// correlation, elapsed time, JSON laid out to the terminal width, or one raw line with --raw), and
// the story around it: headings, notes, checks, HTTP exchanges. Colour only where colours.ts allows.
// It prints peer text (`--trace` of any server): all of it goes through terminal-text.ts first.

import type { ChannelObserver, Frame, Message } from 'mcpwire';
import type { Colours } from './colours.ts';
import { layoutJson } from './json-layout.ts';
import { toTerminalJson, toTerminalText } from './terminal-text.ts';
import { WireRecord, type Direction, type WireEntry } from './wire-record.ts';
import { toCappedJson } from '../wire/json-depth.ts';

/** How JSON is indented under its message line. */
const BODY_INDENT = '    ';

/**
 * From this depth a value that does not fit the width is cut (`…`) instead of broken up: the
 * message, its params or result, and two levels more (a tool, an issue) stay readable on a screen.
 */
const FOLD_DEPTH = 4;

/** Where and how the demo prints. */
export interface DemoPrinterOptions {
  /** Receives whole lines. */
  write: (text: string) => void;
  colours: Colours;
  /** The terminal width (the JSON is laid out to it). */
  width: number;
  /** One line per message, JSON as sent; the story as `#` lines. */
  isRaw: boolean;
}

/** Prints one demo run and records its wire (see `wire`). One per run; not re-entrant. */
export class DemoPrinter {
  readonly wire = new WireRecord();
  readonly #options: DemoPrinterOptions;
  readonly #started = performance.now();

  constructor(options: DemoPrinterOptions) {
    this.#options = options;
  }

  /** Milliseconds since the printer was made. */
  get elapsed(): number {
    return performance.now() - this.#started;
  }

  /** The tap observer: prints every message the host sends and every frame it receives, in wire order. */
  get observer(): ChannelObserver {
    return {
      onSend: (message) => {
        for (const item of Array.isArray(message) ? (message as readonly Message[]) : [message as Message])
          this.message('sent', item);
      },
      onReceive: (frame) => this.#frame(frame),
    };
  }

  /** A tap observer for the received side only (over HTTP the sent side is printed from the POST bodies). */
  get receiveObserver(): ChannelObserver {
    return { onReceive: (frame) => this.#frame(frame) };
  }

  /** Prints (and records) one message. */
  message(direction: Direction, message: Message): WireEntry {
    const entry = this.wire.add(direction, message, this.elapsed);
    const { colours, isRaw, width } = this.#options;
    const arrow = direction === 'sent' ? '→' : '←';
    if (isRaw) {
      this.#write(`${arrow} ${toTerminalJson(toCappedJson(message))}`);
      return entry;
    }
    const who = direction === 'sent' ? colours.cyan('host → server') : colours.magenta('server → host');
    this.#write(`${colours.dim(this.#stamp(entry.at))} ${who}  ${colours.bold(toTerminalText(entry.title))}`);
    const lines = layoutJson(message, {
      width: Math.max(40, width - BODY_INDENT.length),
      maxDepth: FOLD_DEPTH,
    });
    this.#write(lines.map((line) => BODY_INDENT + toTerminalJson(line)).join('\n'));
    return entry;
  }

  /** A section heading. */
  heading(text: string): void {
    text = shown(text);
    if (this.#options.isRaw) this.#write(`# == ${text}`);
    else this.#write(`\n${this.#options.colours.bold(this.#options.colours.underline(text))}`);
  }

  /** What the host is doing or what just happened. */
  note(text: string): void {
    text = shown(text);
    if (this.#options.isRaw) this.#write(`#    ${text}`);
    else this.#write(this.#options.colours.dim(`   ${text}`));
  }

  /** The verdict of one protocol check. */
  check(isOk: boolean, text: string): void {
    const { colours, isRaw } = this.#options;
    const mark = isOk ? colours.green('✓') : colours.red('✗');
    text = shown(text);
    this.#write(`${isRaw ? '# ' : '   '}${mark} ${isOk ? text : colours.red(text)}`);
  }

  /** An HTTP exchange or SSE event line (over --http), printed as it happens. */
  http(text: string): void {
    const { colours, isRaw } = this.#options;
    text = shown(text);
    this.#write(isRaw ? text : `${colours.dim(this.#stamp(this.elapsed))} ${colours.yellow(text)}`);
  }

  /** A plain line. */
  line(text: string): void {
    this.#write(shown(text));
  }

  #frame(frame: Frame): void {
    if (frame.type === 'message') this.message('received', frame.message);
    else if (frame.type === 'batch') for (const item of frame.items) this.#frame(item);
    else
      this.#write(
        `${this.#options.colours.red('server → host (invalid)')} ${toTerminalJson(toCappedJson(frame.response))}`,
      );
  }

  #stamp(ms: number): string {
    return `+${(ms / 1000).toFixed(3)}s`;
  }

  #write(text: string): void {
    this.#options.write(`${text}\n`);
  }
}

/** Text that may quote a peer: its controls shown escaped, line breaks kept (ours carry no controls). */
function shown(text: string): string {
  return toTerminalText(text, { keepNewlines: true });
}
