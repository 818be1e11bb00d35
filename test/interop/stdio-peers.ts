// The real peers of the interop tests, as the commands that start them over stdio: our reference server
// (`mcpwire serve everything`, run from source under tsx) and the official `@modelcontextprotocol/server-everything`.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ourCliCommand } from '../support/node-options.ts';
import { officialEverythingEntry } from '../support/official-everything.ts';

/** The repository root: the working directory of every spawned peer, so `--import tsx` resolves. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** How to start one stdio server: the shape both our transport and the official ones accept. */
export interface StdioCommand {
  command: string;
  args: string[];
  cwd: string;
  /** Extra environment (transports pass only a safe allow-list): tsx and the wire schema check. */
  env?: Record<string, string>;
}

/** `mcpwire serve everything` from source; it exits when its stdin closes (STDIO-2). */
export const OUR_EVERYTHING_SERVER: StdioCommand = ourCliCommand('serve', 'everything');

/** The official everything server, started through its package `bin` with the `stdio` transport argument. */
export const OFFICIAL_EVERYTHING_SERVER: StdioCommand = {
  command: process.execPath,
  args: [officialEverythingEntry(), 'stdio'],
  cwd: REPO_ROOT,
};

/**
 * Keeps the last `limit` characters a child wrote to stderr, to show in a failing assertion.
 * Pass `capture.write` as the `stderr` option of our transport.
 */
export class StderrTail {
  #text = '';
  readonly #limit: number;

  constructor(limit = 4096) {
    this.#limit = limit;
  }

  /** Appends a chunk of decoded text. */
  readonly write = (text: string): void => {
    this.#text = (this.#text + text).slice(-this.#limit);
  };

  /** What was kept, or a note that nothing was written. */
  toString(): string {
    return this.#text === '' ? '(no stderr output)' : this.#text;
  }
}
