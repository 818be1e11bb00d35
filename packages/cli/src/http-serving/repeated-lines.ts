// A serving node's stderr during an outage: each request answered 503 and each reconnect attempt
// reports the same line, thousands a second under load. The same line again within a window is
// counted instead of written, and the count is said before the next line that is written.

/** Options of {@link collapseRepeats}; `now` is for tests. */
export interface CollapseOptions {
  /** How long a line written stays the one whose repeats are counted; default 10 s. */
  windowMs?: number;
  now?: () => number;
}

/** Wraps `write` (one line, no newline) so that a line said again within the window is counted. */
export function collapseRepeats(
  write: (line: string) => void,
  options: CollapseOptions = {},
): (line: string) => void {
  const windowMs = options.windowMs ?? 10_000;
  const now = options.now ?? Date.now;
  let last: string | undefined;
  let writtenAt = 0;
  let repeats = 0;
  return (line) => {
    const at = now();
    if (line === last && at - writtenAt < windowMs) {
      repeats++;
      return;
    }
    if (repeats > 0) write(`mcpwire: (the line above ${repeats} more ${repeats === 1 ? 'time' : 'times'})`);
    last = line;
    writtenAt = at;
    repeats = 0;
    write(line);
  };
}
