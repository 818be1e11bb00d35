// The stdout guard (STDIO-3: a server writes nothing but MCP messages to stdout): while installed,
// every write to the stream from anyone else (console.log, console.info, stdout.write) goes to stderr.

import type { Writable } from 'node:stream';
import type { WriteFunction } from './line-writer.ts';

/** An installed guard: the one way left to write to the real stream, and the way to undo it. */
export interface StdoutGuard {
  /** Writes to the guarded stream itself, bypassing the redirection. */
  readonly write: WriteFunction;
  /** Removes this guard; the stream's own `write` is back once every guard on it is removed. Idempotent. */
  restore(): void;
}

type AnyWrite = (...args: unknown[]) => boolean;

interface Installed {
  original: AnyWrite;
  hadOwnWrite: boolean;
  replacement: AnyWrite;
  count: number;
}

const installed = new WeakMap<Writable, Installed>();

/**
 * Replaces `stream.write` with a function that forwards to `target.write` (looked up at each call,
 * so later wrappers of the target are honoured), and returns the bound original for the channel's
 * own use. Guards on one stream nest: they share the original and the last `restore` puts it back.
 * If other code has replaced `stream.write` in the meantime, its replacement is left in place.
 */
export function installStdoutGuard(stream: Writable, target: Writable = process.stderr): StdoutGuard {
  let entry = installed.get(stream);
  if (entry === undefined) {
    // Kept unbound on purpose: it is always called with `stream` as `this` (see `write` below).
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const original = stream.write as AnyWrite;
    const replacement: AnyWrite = (...args) => (target.write as AnyWrite).apply(target, args);
    entry = { original, hadOwnWrite: Object.hasOwn(stream, 'write'), replacement, count: 0 };
    installed.set(stream, entry);
    stream.write = replacement as Writable['write'];
  }
  entry.count++;
  const { original } = entry;
  let isRestored = false;
  return {
    write: (chunk, callback) => original.call(stream, chunk, callback),
    restore: () => {
      if (isRestored) return;
      isRestored = true;
      release(stream);
    },
  };
}

function release(stream: Writable): void {
  const entry = installed.get(stream);
  if (entry === undefined) return;
  entry.count--;
  if (entry.count > 0) return;
  installed.delete(stream);
  if (stream.write !== (entry.replacement as Writable['write'])) return;
  if (entry.hadOwnWrite) stream.write = entry.original as Writable['write'];
  else delete (stream as { write?: unknown }).write;
}
