// What `--trace` and `--record` see of a client command's connection: over stdio the messages on
// the channel, the spawn, the exit and stderr; over HTTP each exchange (request headers, status,
// response headers), the messages in its body or SSE events, and how its stream ended.

import type { Channel, ChannelReceiver, Frame, Message, Transport } from 'mcpwire';
import type { EraKeyed } from 'mcpwire/client';
import { SseParserStream, type FetchLike } from 'mcpwire/http';
import type { WireRecorder } from './recorder.ts';
import { MAX_KEPT_TEXT } from './transcript.ts';

/** A stdio transport observed: messages and the process's life; its era cache key is kept. */
export function observeStdioTransport(
  transport: Transport & Partial<EraKeyed>,
  recorder: WireRecorder,
  spawned: { command: string; args: readonly string[] },
): Transport & Partial<EraKeyed> {
  return {
    ...(transport.key === undefined ? {} : { key: transport.key }),
    async connect() {
      const channel = await transport.connect();
      const pid = (channel.info as { pid?: number } | undefined)?.pid;
      recorder.record({
        type: 'spawn',
        command: spawned.command,
        args: [...spawned.args],
        ...(pid === undefined ? {} : { pid }),
      });
      return observeChannel(channel, recorder, { isStdio: true });
    },
  };
}

/** A stdio channel observed: each message sent and frame received, and the process's exit. */
function observeChannel(channel: Channel, recorder: WireRecorder, options: { isStdio: boolean }): Channel {
  let isExitRecorded = false;
  const recordExit = (): void => {
    const status = (channel as { exitStatus?: { code: number | null; signal: string | null } }).exitStatus;
    if (!options.isStdio || isExitRecorded || status === undefined) return;
    isExitRecorded = true;
    recorder.record({ type: 'exit', code: status.code, signal: status.signal });
  };
  const observed: Channel = {
    open(receiver: ChannelReceiver) {
      channel.open({
        handleFrame(frame) {
          recordFrame(recorder, frame);
          receiver.handleFrame(frame);
        },
        handleClose(error) {
          recordExit();
          receiver.handleClose(error);
        },
      });
    },
    send(message, sendOptions) {
      recorder.message('client', message as Message | readonly Message[]);
      return channel.send(message, sendOptions);
    },
    async close() {
      await channel.close();
      recordExit();
    },
  };
  Object.defineProperty(observed, 'info', { get: () => channel.info, enumerable: true });
  Object.defineProperty(observed, 'exitStatus', {
    get: () => (channel as { exitStatus?: unknown }).exitStatus,
  });
  return observed;
}

function recordFrame(recorder: WireRecorder, frame: Frame): void {
  if (frame.type === 'message') recorder.message('server', frame.message);
  else if (frame.type === 'batch') for (const item of frame.items) recordFrame(recorder, item);
  else
    recorder.record({
      type: 'invalid',
      from: 'server',
      text: JSON.stringify(frame.response),
      reason: frame.response.error.message,
    });
}

/**
 * A fetch that records each exchange: the request (and the messages it posts), the response's
 * status and headers, the messages of a JSON body or of each SSE event as it passes (the body is
 * passed on unchanged), a body that is no JSON-RPC (cut), and the end of the stream.
 */
export function recordingFetch(recorder: WireRecorder, inner: FetchLike = fetch): FetchLike {
  let exchanges = 0;
  return async (request) => {
    const exchange = ++exchanges;
    const body = request.method === 'POST' ? await request.clone().text() : '';
    const posted = parseJson(body);
    // A body that is no JSON-RPC (an OAuth token request, a registration) is kept on the exchange.
    const isRpc = isJsonRpc(posted);
    recorder.record({
      type: 'http-request',
      exchange,
      method: request.method,
      url: request.url,
      headers: headersOf(request.headers),
      ...(isRpc || body === '' ? {} : { body: body.slice(0, MAX_KEPT_TEXT) }),
    });
    if (isRpc) recorder.message('client', posted as Message | Message[], { exchange });
    let response: Response;
    try {
      response = await inner(request);
    } catch (error) {
      recorder.record({ type: 'http-end', exchange, error: (error as Error).message });
      throw error;
    }
    const type = response.headers.get('content-type') ?? '';
    const base = {
      type: 'http-response',
      exchange,
      status: response.status,
      headers: headersOf(response.headers),
    } as const;
    if (type.startsWith('text/event-stream') && response.body !== null) {
      recorder.record(base);
      return new Response(observeSse(response.body, recorder, exchange), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }
    const text = await response.text();
    const received = parseJson(text);
    const isRpcAnswer = isJsonRpc(received);
    recorder.record(isRpcAnswer ? base : { ...base, body: text.slice(0, MAX_KEPT_TEXT) });
    if (isRpcAnswer) recorder.message('server', received as Message | Message[], { exchange });
    recorder.record({ type: 'http-end', exchange });
    return new Response(text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/**
 * Passes an SSE body on as it is read (so a stream the client cancels is cancelled upstream too),
 * recording each event's message as the event completes, and how the stream ended.
 */
function observeSse(
  body: ReadableStream<Uint8Array>,
  recorder: WireRecorder,
  exchange: number,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const parser = new SseParserStream();
  const writer = parser.writable.getWriter();
  const decoder = new TextDecoder();
  let isEnded = false;
  const end = (error?: string): void => {
    if (isEnded) return;
    isEnded = true;
    recorder.record({ type: 'http-end', exchange, ...(error === undefined ? {} : { error }) });
  };
  const events = (async () => {
    for await (const event of parser.readable) {
      const message = parseJson(event.data);
      if (message !== undefined)
        recorder.message('server', message as Message | Message[], {
          exchange,
          ...(event.lastEventId === '' ? {} : { eventId: event.lastEventId }),
        });
    }
  })().catch(() => {});
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          await writer.close().catch(() => {});
          await events;
          end();
          controller.close();
          return;
        }
        await writer.write(decoder.decode(value, { stream: true }));
        controller.enqueue(value);
      } catch (error) {
        end((error as Error).message);
        controller.error(error);
      }
    },
    cancel(reason) {
      end('closed by the client');
      void writer.abort(reason).catch(() => {});
      return reader.cancel(reason);
    },
  });
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}

/**
 * True for what reads as JSON-RPC: an object with `jsonrpc`, `method`, `id`, `result` or `error` whose
 * `error` is not an OAuth error string, or a non-empty array (a batch). OAuth documents, token responses
 * and registrations have none of these.
 */
function isJsonRpc(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value !== 'object' || value === null) return false;
  const object = value as Record<string, unknown>;
  if (typeof object.error === 'string') return false;
  return ['jsonrpc', 'method', 'id', 'result', 'error'].some((key) => key in object);
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
