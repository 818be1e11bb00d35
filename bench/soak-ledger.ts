// The soak's ledger: every request (and every notification the client sends) gets an entry when it
// starts and exactly one outcome when its promise settles; afterwards nothing may be left open,
// settled twice, or answered with the wrong content.

import { RequestCancelledError, RequestTimeoutError, RpcError } from 'mcpwire/client';

/** How a request ended. */
export type Outcome = 'result' | 'error' | 'cancelled' | 'connection-failure' | 'timeout';

/** One open ledger line. */
export interface Entry {
  kind: string;
  driver: string;
  startedAt: number;
  /** The JSON-RPC ids the client gave the request (a re-issue or input round adds one each). */
  requestIds?: Array<string | number>;
  /** Text that marks this client's HTTP requests on the wire (its session id), for diagnostics. */
  needles?: readonly string[];
}

/** What the ledger learned about a request that timed out, from {@link LedgerOptions.explain}. */
export interface TimeoutDiagnostic {
  id: number;
  kind: string;
  driver: string;
  startedAt: string;
  requestIds: Array<string | number>;
  explanation: unknown;
}

/** Options of the Ledger. */
export interface LedgerOptions {
  /** Describes what the wire shows of an entry that timed out (the soak asks the proxy's log). */
  explain?: (entry: Entry) => unknown;
}

/** At most this many timeouts of one `kind driver` are explained: a broken run should not fill the figures. */
const DIAGNOSTICS_LIMIT = 5;

/** A broken promise of the soak: the run fails when there is any. */
export interface Violation {
  id: number;
  kind: string;
  driver: string;
  what: string;
}

/** What the ledger counted, for the report. */
export interface LedgerFigures {
  requests: number;
  outcomes: Record<Outcome, number>;
  byKind: Record<string, Partial<Record<Outcome, number>>>;
  /** Requests answered with a result, per driver. */
  resultsByDriver: Record<string, number>;
  /** Requests that did not end with a result, by {@link toErrorKind}. */
  errorKinds: Record<string, number>;
  /** Connection failures by driver and error name (which layer reported them). */
  failureNames: Record<string, number>;
  open: number;
  violations: Violation[];
  /** Which requests timed out, by `kind driver`. */
  timeouts: Record<string, number>;
  /** The first timeouts of each kind and driver, each with what the wire showed of it. */
  timeoutDiagnostics: TimeoutDiagnostic[];
}

/** Sorts a settled promise's error into an outcome. */
export function toOutcome(error: unknown): Outcome {
  if (error instanceof RequestCancelledError) return 'cancelled';
  if (error instanceof RequestTimeoutError) return 'timeout';
  if (error instanceof RpcError) return 'error';
  return 'connection-failure';
}

/**
 * Names what ended a request without a result, following `cause` a few levels: the multi-node
 * soak's expected failures ('redis-down 503', 'node-died -32004' or '... 502 (proxy)', 'session-lost
 * 404'), another HTTP
 * status or JSON-RPC code, or the error's name.
 */
export function toErrorKind(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const { status, code } = current as { status?: unknown; code?: unknown };
    if (current instanceof RpcError) return code === -32004 ? 'node-died -32004' : `rpc ${String(code)}`;
    if (current.name === 'SessionExpiredError' || (current.name === 'HttpError' && status === 404))
      return 'session-lost 404';
    // 502: the proxy's answer when a node died before its response began.
    if (current.name === 'HttpError' && status === 502) return 'node-died 502 (proxy)';
    if (current.name === 'HttpError') return status === 503 ? 'redis-down 503' : `http ${String(status)}`;
    if (current.cause === undefined) break;
    current = current.cause;
  }
  return error instanceof Error ? error.name : typeof error;
}

/**
 * The ledger. Only open entries are kept: a settled one is folded into the counts at once, so the
 * ledger's own memory stays flat however long the soak runs (keeping every entry of a 30-minute run
 * held ~9 MiB). One per soak run.
 */
export class Ledger {
  readonly #open = new Map<number, Entry>();
  readonly #failureNames = new Map<string, number>();
  readonly #errorKinds: Record<string, number> = {};
  readonly #violations: Violation[] = [];
  readonly #outcomes: Record<Outcome, number> = {
    result: 0,
    error: 0,
    cancelled: 0,
    'connection-failure': 0,
    timeout: 0,
  };
  readonly #byKind: LedgerFigures['byKind'] = {};
  readonly #resultsByDriver: Record<string, number> = {};
  readonly #timeouts: Record<string, number> = {};
  readonly #diagnostics: TimeoutDiagnostic[] = [];
  readonly #explain: LedgerOptions['explain'];
  #nextId = 1;

  constructor(options: LedgerOptions = {}) {
    this.#explain = options.explain;
  }

  /** Opens an entry; the returned id is settled once with {@link settle}. */
  begin(kind: string, driver: string, needles?: readonly string[]): number {
    const id = this.#nextId++;
    const entry: Entry = { kind, driver, startedAt: Date.now() };
    if (needles !== undefined) entry.needles = needles;
    this.#open.set(id, entry);
    return id;
  }

  /** Notes a JSON-RPC id the client used for entry `id` (pass it as a request's `onRequestId`). */
  noteRequestId(id: number, requestId: string | number): void {
    const entry = this.#open.get(id);
    if (entry) (entry.requestIds ??= []).push(requestId);
  }

  /** Records the outcome of `id`; a second outcome for an id already settled is a violation. */
  settle(id: number, outcome: Outcome, error?: unknown): void {
    const entry = this.#open.get(id);
    if (!entry) {
      if (id > 0 && id < this.#nextId) this.violate(id, `a second outcome (${outcome})`);
      else throw new Error(`ledger: no entry ${id}`);
      return;
    }
    this.#open.delete(id);
    this.#outcomes[outcome]++;
    const kind = (this.#byKind[entry.kind] ??= {});
    kind[outcome] = (kind[outcome] ?? 0) + 1;
    if (outcome === 'result')
      this.#resultsByDriver[entry.driver] = (this.#resultsByDriver[entry.driver] ?? 0) + 1;
    if (outcome === 'timeout') {
      const key = `${entry.kind} ${entry.driver}`;
      this.#timeouts[key] = (this.#timeouts[key] ?? 0) + 1;
      if (this.#timeouts[key] <= DIAGNOSTICS_LIMIT) this.#diagnose(id, entry);
    }
    if (outcome !== 'result') {
      const errorKind =
        outcome === 'error' || outcome === 'connection-failure' ? toErrorKind(error) : outcome;
      this.#errorKinds[errorKind] = (this.#errorKinds[errorKind] ?? 0) + 1;
    }
    if (outcome === 'connection-failure') {
      const what = error instanceof Error ? `${error.name}: ${error.message}` : typeof error;
      const name = `${entry.driver} ${what.replace(/\d+/g, 'N').slice(0, 90)}`;
      this.#failureNames.set(name, (this.#failureNames.get(name) ?? 0) + 1);
    }
  }

  #diagnose(id: number, entry: Entry): void {
    let explanation: unknown;
    try {
      explanation = this.#explain?.(entry);
    } catch (error) {
      explanation = `no explanation: ${String(error)}`;
    }
    this.#diagnostics.push({
      id,
      kind: entry.kind,
      driver: entry.driver,
      startedAt: new Date(entry.startedAt).toISOString(),
      requestIds: entry.requestIds ?? [],
      explanation,
    });
  }

  /**
   * Records a broken promise about entry `id` (wrong content, lost or repeated events); `about`
   * names a settled entry, which the ledger no longer holds.
   */
  violate(id: number, what: string, about?: { kind: string; driver: string }): void {
    const entry = this.#open.get(id) ?? about;
    this.#violations.push({ id, kind: entry?.kind ?? '?', driver: entry?.driver ?? '?', what });
  }

  /** Runs `work` as entry `kind`: its result or error becomes the outcome; resolves with the result or undefined. */
  async track<T>(
    kind: string,
    driver: string,
    work: (id: number) => Promise<T>,
    needles?: readonly string[],
  ): Promise<T | undefined> {
    const id = this.begin(kind, driver, needles);
    try {
      const value = await work(id);
      this.settle(id, 'result');
      return value;
    } catch (error) {
      this.settle(id, toOutcome(error), error);
      return undefined;
    }
  }

  /** Entries still without an outcome. */
  get openCount(): number {
    return this.#open.size;
  }

  /** The counts, with one violation per entry still open (call once the run has drained). */
  figures(): LedgerFigures {
    const violations = [...this.#violations];
    for (const [id, entry] of this.#open)
      violations.push({ id, kind: entry.kind, driver: entry.driver, what: 'no outcome' });
    return {
      requests: this.#nextId - 1,
      outcomes: { ...this.#outcomes },
      byKind: structuredClone(this.#byKind),
      resultsByDriver: { ...this.#resultsByDriver },
      failureNames: Object.fromEntries(this.#failureNames),
      errorKinds: { ...this.#errorKinds },
      open: this.#open.size,
      violations,
      timeouts: { ...this.#timeouts },
      timeoutDiagnostics: [...this.#diagnostics],
    };
  }
}
