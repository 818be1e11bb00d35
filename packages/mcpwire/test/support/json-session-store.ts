// A session store behind a wall of JSON, for the tests of sessions as state (issue 23): every record
// in or out is a fresh copy, answered asynchronously, so a session served through it proves its
// record is plain data and that no live object keeps the state in a private field.

import type { SessionChange, SessionRecord } from '../../src/protocol/session-record.ts';
import {
  InMemorySessionStore,
  type SessionCreateLimits,
  type SessionCreation,
  type SessionStore,
  type SessionUpdate,
} from '../../src/transports/http/session-store.ts';

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The in-memory store behind a wall of JSON: every record in or out is a fresh copy, asynchronously. */
export class JsonRoundTripStore implements SessionStore {
  readonly inner = new InMemorySessionStore();
  /** Every record written (create and update), as JSON text. */
  readonly written: string[] = [];
  /** Touches received. */
  touches = 0;
  readonly touchPeriodMs?: number;
  readonly liveIdleMs?: number;

  /**
   * `touchPeriodMs`: the store says its touches may be coalesced to that period (a remote store);
   * `liveIdleMs`: that handlers may let go of idle sessions' live objects after that long.
   */
  constructor(options: { touchPeriodMs?: number; liveIdleMs?: number } = {}) {
    if (options.touchPeriodMs !== undefined) this.touchPeriodMs = options.touchPeriodMs;
    if (options.liveIdleMs !== undefined) this.liveIdleMs = options.liveIdleMs;
  }

  async create(record: SessionRecord, limits: SessionCreateLimits): Promise<SessionCreation> {
    this.written.push(JSON.stringify(record));
    await Promise.resolve();
    return copy(this.inner.create(copy(record), limits));
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    await Promise.resolve();
    const record = this.inner.get(id);
    return record === undefined ? undefined : copy(record);
  }

  async update(id: string, expectedRevision: number, change: SessionChange): Promise<SessionUpdate> {
    this.written.push(JSON.stringify(change));
    await Promise.resolve();
    return copy(this.inner.update(id, expectedRevision, copy(change)));
  }

  async touch(id: string, at: number): Promise<void> {
    this.touches++;
    await Promise.resolve();
    this.inner.touch(id, at);
  }

  async delete(id: string): Promise<boolean> {
    await Promise.resolve();
    return this.inner.delete(id);
  }

  async count(clientKey?: string): Promise<number> {
    await Promise.resolve();
    return this.inner.count(clientKey);
  }
}
