// The two ends of a lease on a POST stream's requests (issue 24, node death): the holder's stream
// keeps the lease while its requests run; a resuming handler whose holder is gone settles it.

import { encodeMessage } from '../../jsonrpc/codec.ts';
import type { RequestId } from '../../jsonrpc/message.ts';
import type { EventStore } from './event-store.ts';
import type { PostStream } from './post-exchange.ts';
import { holderStoppedResponse, type RequestLeases } from './request-leases.ts';
import { writeStored, type ResumableStream } from './sse-stream.ts';
import type { SseConnection } from './sse-writer.ts';

/**
 * The POST stream `stream` with a lease on `requestIds` taken when it opens (no leases: the stream
 * itself). The lease is let go once the stream's last events are stored: until then its responses
 * are still owed.
 */
export function leasedStream(
  stream: ResumableStream,
  requestIds: readonly RequestId[],
  leases: RequestLeases | undefined,
): PostStream {
  if (leases === undefined) return stream;
  const lease = leases.hold(stream.id, requestIds);
  return {
    open: (connection, priming) => stream.open(connection, priming),
    send: (message) => stream.send(message),
    detach: () => stream.detach(),
    finish: (isAnswered = true) => {
      stream.finish();
      void stream.drained().then(() => lease.end(isAnswered));
    },
  };
}

/** What `replaySettled` needs: the stream, where it resumes, and the handler's stores. */
export interface SettleOptions {
  store: EventStore;
  leases: RequestLeases;
  streamId: string;
  lastEventId: string;
  onError: (error: Error) => void;
}

/**
 * Writes to `connection` a stream that no handler continues: what the event store has after
 * `lastEventId`; then, once the lease is settled (the connection stays open meanwhile, with its
 * keep-alive comments, at most about one lease period), an error response for each request whose
 * holder stopped and that the stream does not answer (stored first, so a later resumption replays
 * it); then ends it. Never rejects: a store failure is reported and the connection ends.
 */
export async function replaySettled(connection: SseConnection, options: SettleOptions): Promise<void> {
  const { store, leases, streamId } = options;
  let last = options.lastEventId;
  const answered = new Set<RequestId>();
  const writeNew = async (): Promise<void> => {
    for (const event of (await store.replayAfter(last))?.events ?? []) {
      writeStored(connection, event);
      last = event.id;
      for (const id of responseIdsIn(event.data)) answered.add(id);
    }
  };
  try {
    await writeNew();
    const outcome = await leases.settle(streamId);
    if (outcome.state === 'lost') {
      await writeNew();
      for (const id of outcome.requestIds) {
        if (!answered.has(id)) await store.append(streamId, encodeMessage(holderStoppedResponse(id)));
      }
      await writeNew();
    }
  } catch (error) {
    options.onError(new Error(`SSE stream ${streamId}: settling its lease failed`, { cause: error }));
  } finally {
    connection.close();
  }
}

/** The ids of the responses in one stored event's data (a message or a batch; our own writing). */
function responseIdsIn(data: string): RequestId[] {
  if (data === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return [];
  }
  const ids: RequestId[] = [];
  for (const item of Array.isArray(parsed) ? (parsed as unknown[]) : [parsed]) {
    if (typeof item !== 'object' || item === null || 'method' in item) continue;
    const { id } = item as { id?: unknown };
    if (typeof id === 'string' || typeof id === 'number') ids.push(id);
  }
  return ids;
}
