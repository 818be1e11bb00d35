// Observation off the forwarding path: the tap forwards each chunk as it is read and queues a copy
// here; the queue splits, records and lints it on a later turn of the event loop, a slice at a time,
// so what is ready to forward (either direction) is forwarded first and never waits for a long lint.
// Small chunks are gathered into a slice first, so a message at a time is not observed cold.

/**
 * The most bytes observed in one turn of the event loop before the tap forwards again: of 2, 4, 8
 * and 16 KiB, 4 gave bench/tap.ts the lowest pipelined latency.
 */
const SLICE_BYTES = 4 * 1024;

/**
 * How long less than a slice may wait to be observed. Observed a message or two per read, as
 * one-at-a-time traffic arrives, the whole observation path runs cold each time; gathered, the
 * first message pays for the rest (bench/tap.ts, sequential). Findings are reported at most this
 * much later; the entries keep the times they were read.
 */
const GATHER_MS = 10;

/**
 * The most bytes left waiting: past this the reading callback itself observes the oldest until the
 * queue is back under it, so a flood slows forwarding to the observer's pace (each read paying for
 * about its own bytes) instead of growing memory or stalling for one long catch-up.
 */
const MAX_QUEUED_BYTES = 1024 * 1024;

interface Item {
  readonly at: number;
  readonly bytes: number;
  readonly run: () => void;
}

/**
 * Runs observation tasks in the order added, later: from the next turn of the event loop once a
 * slice (SLICE_BYTES) of input waits, else GATHER_MS after the first task added to an empty queue;
 * then a slice per turn until none is left. Each task sees {@link clock} read the time it was added.
 */
export class ObserveQueue {
  #items: Item[] = [];
  #head = 0;
  #bytes = 0;
  #immediate: NodeJS.Immediate | undefined;
  #timer: NodeJS.Timeout | undefined;
  #runningAt: number | undefined;

  /** The time to stamp entries with: when the running task was added, else now (performance.now()). */
  readonly clock = (): number => this.#runningAt ?? performance.now();

  /**
   * Queues `observe` for `chunk`, cut after a newline into slices of about SLICE_BYTES (a line
   * longer than that is one slice). The chunk is not copied: the caller must not reuse it.
   */
  addChunk(chunk: Buffer, observe: (slice: Buffer) => void): void {
    let start = 0;
    while (start < chunk.length) {
      let end = Math.min(chunk.length, start + SLICE_BYTES);
      if (end < chunk.length) {
        // Cut after a line, so the splitter decodes whole lines in place instead of copying parts.
        const newline = chunk.lastIndexOf(10, end - 1);
        end = newline >= start ? newline + 1 : chunk.indexOf(10, end) + 1 || chunk.length;
      }
      const slice = chunk.subarray(start, end);
      this.add(slice.length, () => observe(slice));
      start = end;
    }
  }

  /** Queues one task standing for `bytes` of input (0 for an event such as the server's exit). */
  add(bytes: number, run: () => void): void {
    this.#items.push({ at: performance.now(), bytes, run });
    this.#bytes += bytes;
    if (this.#bytes > MAX_QUEUED_BYTES) this.#run(this.#bytes - MAX_QUEUED_BYTES);
    this.#schedule();
  }

  /** Runs every queued task now (before something that must be recorded after them). */
  flush(): void {
    this.#run(Infinity);
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** After an add: the next slice on the next turn once a slice waits, else GATHER_MS from the first add. */
  #schedule(): void {
    if (this.#immediate !== undefined) return;
    if (this.#bytes >= SLICE_BYTES) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#immediate = setImmediate(this.#runSlice);
    } else this.#timer ??= setTimeout(this.#runGathered, GATHER_MS);
  }

  readonly #runSlice = (): void => {
    this.#immediate = undefined;
    this.#run(SLICE_BYTES);
    // What is left has waited already: the next slice on the next turn.
    if (this.#head < this.#items.length) this.#immediate = setImmediate(this.#runSlice);
  };

  readonly #runGathered = (): void => {
    this.#timer = undefined;
    if (this.#immediate === undefined) this.#runSlice();
  };

  #run(budget: number): void {
    let used = 0;
    while (this.#head < this.#items.length && used < budget) {
      const item = this.#items[this.#head]!;
      // Released as it runs: the queue holds no chunk it has observed.
      this.#items[this.#head++] = undefined as unknown as Item;
      this.#bytes -= item.bytes;
      used += Math.max(1, item.bytes);
      this.#runningAt = item.at;
      try {
        item.run();
      } finally {
        this.#runningAt = undefined;
      }
    }
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      // A queue that never quite empties under steady traffic: drop the run part.
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
  }
}
