// Properties of `Last-Event-ID` handling in the in-memory event store (HTTP-22..24): against a model of
// appends and evictions, every id it issued replays exactly what followed, and any other text a
// client sends as Last-Event-ID, however close to a real id, is unknown.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import fc from 'fast-check';

import { checkProperty } from '../../../../../test/support/property.ts';
import { InMemoryEventStore, type StoredEvent } from './event-store.ts';

interface ModelStream {
  /** Every event ever appended, by sequence number. */
  all: string[];
  /** Sequence number of the oldest one kept. */
  first: number;
}

/** The store's rules written out: per-stream window, least recently written stream dropped first. */
class Model {
  readonly streams = new Map<string, ModelStream>();
  constructor(
    readonly maxEvents: number,
    readonly maxStreams: number,
  ) {}

  append(streamId: string, data: string): string {
    const stream = this.streams.get(streamId) ?? { all: [], first: 0 };
    this.streams.delete(streamId);
    this.streams.set(streamId, stream);
    while (this.streams.size > this.maxStreams) this.streams.delete(this.streams.keys().next().value!);
    stream.all.push(data);
    stream.first = Math.max(0, stream.all.length - this.maxEvents);
    return `${streamId}:${stream.all.length - 1}`;
  }

  /**
   * The replay an id must give: undefined unless it names a kept event or the one just before the
   * window (an id of a dropped stream that was written again names the new stream's event, if any).
   */
  replayAfter(issued: ReadonlyMap<string, { streamId: string; sequence: number }>, id: string) {
    const known = issued.get(id);
    const stream = known && this.streams.get(known.streamId);
    if (!known || !stream || known.sequence < stream.first - 1) return undefined;
    if (known.sequence >= stream.all.length) return undefined;
    const events: StoredEvent[] = [];
    for (let n = known.sequence + 1; n < stream.all.length; n++)
      events.push({ id: `${known.streamId}:${n}`, data: stream.all[n]! });
    return { streamId: known.streamId, events };
  }
}

/** Stream ids as the handler makes them (UUIDs) and awkward ones (with colons, empty, numeric). */
const streamId = fc.oneof(fc.uuid(), fc.constantFrom('', 'a', 'a:b', '1', ':', 's:0'));
const appends = fc.array(fc.tuple(streamId, fc.string({ maxLength: 4 })), { maxLength: 30 });

/** Spellings of an id that are not the id: what a confused or hostile client might send. */
function variants(id: string): string[] {
  const colon = id.lastIndexOf(':');
  const [stream, sequence] = [id.slice(0, colon), id.slice(colon + 1)];
  return [
    `${stream}:0${sequence}`,
    `${stream}:+${sequence}`,
    `${stream}: ${sequence}`,
    `${stream}:${sequence} `,
    `${stream}:${sequence}.0`,
    `${stream}:${sequence}e0`,
    `${stream}:0x${Number(sequence).toString(16)}`,
    `${stream}:-${sequence}`,
    `${stream}:-1`,
    `${stream}:`,
    `${stream}:${Number(sequence) + 1_000_000}`,
    `${stream}x:${sequence}`,
    ` ${id}`,
    `${id}:0`,
  ];
}

describe('Last-Event-ID properties', () => {
  test('every issued id replays exactly the events after it on its stream, or is unknown once evicted (HTTP-24)', async (t) => {
    await checkProperty(
      t,
      fc.asyncProperty(
        appends,
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        async (ops, maxEvents, maxStreams) => {
          const store = new InMemoryEventStore({ maxEventsPerStream: maxEvents, maxStreams });
          const model = new Model(maxEvents, maxStreams);
          const issued = new Map<string, { streamId: string; sequence: number }>();
          for (const [stream, data] of ops) {
            const id = await store.append(stream, data);
            assert.equal(id, model.append(stream, data), 'ids are <stream>:<sequence>');
            issued.set(id, { streamId: stream, sequence: model.streams.get(stream)!.all.length - 1 });
          }
          for (const id of issued.keys())
            assert.deepEqual(await store.replayAfter(id), model.replayAfter(issued, id), id);
        },
      ),
    );
  });

  test('any other Last-Event-ID, however close to an issued one, is unknown and never throws (HTTP-23)', async (t) => {
    await checkProperty(
      t,
      fc.asyncProperty(
        appends,
        fc.array(fc.string({ unit: 'binary', maxLength: 10 }), { maxLength: 5 }),
        async (ops, junk) => {
          const store = new InMemoryEventStore();
          const issued = new Set<string>();
          for (const [stream, data] of ops) issued.add(await store.append(stream, data));
          const candidates = [...junk, ...[...issued].flatMap(variants)];
          for (const candidate of candidates) {
            if (issued.has(candidate)) continue;
            assert.equal(await store.replayAfter(candidate), undefined, JSON.stringify(candidate));
          }
        },
      ),
      {
        examples: [
          // Found by this property: `Number()` read "s:00", "s:", "s: 0", "s:0x0" and "s:-1" as
          // sequence numbers, so ids never issued replayed the stream ("s:-1" from its start).
          [[['s', 'x']], []],
        ],
      },
    );
  });
});
