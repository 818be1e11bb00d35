// What the HTTP tap records of one exchange from copies of its bytes (the bytes themselves are
// forwarded untouched): the messages a POST carried, and those of a JSON or SSE response, event by
// event as an SSE stream passes, as recordingFetch records them on the client side.

import type { Message } from 'mcpwire';
import { SseParserStream } from 'mcpwire/http';
import type { WireRecorder } from '../../wire/recorder.ts';
import { MAX_KEPT_TEXT } from '../../wire/transcript.ts';

/** The most of a JSON response body kept to parse its messages (the body itself passes whole). */
const MAX_COPIED_BYTES = 16 * 1024 * 1024;

/** Records the messages of a request body: a JSON-RPC message or batch, or an invalid entry. */
export function recordPosted(recorder: WireRecorder, exchange: number, body: string): void {
  if (body === '') return;
  const value = parseJson(body);
  if (value !== undefined) recorder.message('client', value as Message | Message[], { exchange });
  else
    recorder.record({
      type: 'invalid',
      from: 'client',
      text: body.slice(0, MAX_KEPT_TEXT),
      reason: 'a POST body that is no JSON object or array',
    });
}

/** The status and headers of a response, as the transcript records them. */
export interface ObservedResponse {
  status: number;
  headers: Record<string, string>;
}

/** Watches one response body through copies of its chunks; `end` records how it ended. */
export interface ResponseObserver {
  push: (chunk: Buffer) => void;
  /** Records the end (with `error` when it was cut short). Idempotent; resolves once recorded. */
  end: (error?: string) => Promise<void>;
}

/** The observer for a response: SSE events as they complete, or a JSON body at its end. */
export function observeResponse(
  recorder: WireRecorder,
  exchange: number,
  response: ObservedResponse,
): ResponseObserver {
  const type = response.headers['content-type'] ?? '';
  const encoding = response.headers['content-encoding'];
  if (encoding !== undefined && encoding !== 'identity') {
    recorder.record({ type: 'http-response', exchange, ...response });
    recorder.record({
      type: 'note',
      text: `exchange ${exchange}: a ${encoding} body; its messages are not recorded`,
    });
    return onlyEnd(() => {}, recorder, exchange);
  }
  if (type.startsWith('text/event-stream')) return observeSse(recorder, exchange, response);
  return observeWhole(recorder, exchange, response);
}

function observeSse(recorder: WireRecorder, exchange: number, response: ObservedResponse): ResponseObserver {
  recorder.record({ type: 'http-response', exchange, ...response });
  const parser = new SseParserStream();
  const writer = parser.writable.getWriter();
  const decoder = new TextDecoder();
  const events = (async () => {
    for await (const event of parser.readable) {
      const message = parseJson(event.data);
      if (message !== undefined)
        recorder.message('server', message as Message | Message[], {
          exchange,
          ...(event.lastEventId === '' ? {} : { eventId: event.lastEventId }),
        });
    }
  })().catch((error: Error) =>
    recorder.record({
      type: 'note',
      text: `exchange ${exchange}: the SSE copy stopped parsing: ${error.message}`,
    }),
  );
  const observer = onlyEnd(
    async () => {
      await writer.close().catch(() => {});
      await events;
    },
    recorder,
    exchange,
  );
  return {
    push: (chunk) => void writer.write(decoder.decode(chunk, { stream: true })).catch(() => {}),
    end: observer.end,
  };
}

function observeWhole(
  recorder: WireRecorder,
  exchange: number,
  response: ObservedResponse,
): ResponseObserver {
  const chunks: Buffer[] = [];
  let size = 0;
  const observer = onlyEnd(
    () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const received = size > MAX_COPIED_BYTES ? undefined : parseJson(text);
      recorder.record({
        type: 'http-response',
        exchange,
        ...response,
        ...(received === undefined ? { body: text.slice(0, MAX_KEPT_TEXT) } : {}),
      });
      if (received !== undefined) recorder.message('server', received as Message | Message[], { exchange });
    },
    recorder,
    exchange,
  );
  return {
    push(chunk) {
      size += chunk.length;
      if (size <= MAX_COPIED_BYTES) chunks.push(chunk);
    },
    end: observer.end,
  };
}

/** An observer whose `end` runs `finish` once, then records the exchange's http-end. */
function onlyEnd(
  finish: () => void | Promise<void>,
  recorder: WireRecorder,
  exchange: number,
): ResponseObserver {
  let ending: Promise<void> | undefined;
  return {
    push: () => {},
    end: (error) =>
      (ending ??= (async () => {
        await finish();
        recorder.record({ type: 'http-end', exchange, ...(error === undefined ? {} : { error }) });
      })()),
  };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
