// `--trace` and `--record <file>` on every bridge shape: the messages between the bridge and its
// client (the host on stdio, or each HTTP client), recorded by the CLI's one WireRecorder, so the
// transcript is the other commands' format (lint, replay, report read it) and the trace is their
// printer (text from a peer escaped by toTerminalText). The bridge's side toward its upstream is not
// recorded: put `mcpwire tap` there to see it.

import type {
  Channel,
  ChannelInfo,
  ChannelReceiver,
  Frame,
  JsonObject,
  JsonRpcRequest,
  JsonRpcResponse,
  Message,
  RequestId,
  SendOptions,
} from 'mcpwire';
import type { RequestVia } from 'mcpwire/http';
import { openFileSink, WireRecorder, type WireSink } from '../../wire/recorder.ts';
import { Redactor } from '../../wire/redact.ts';
import { traceSink } from '../../wire/trace-sink.ts';

/** The bridge's wire options. */
export interface BridgeWireOptions {
  trace?: boolean;
  record?: string;
  redact?: string[];
}

/** An open recording: what wraps the bridge's client side, and its end. */
export interface BridgeRecording {
  /** A server (ChannelServer and/or RequestServer) whose every session and request is recorded. */
  wrapServer<Server extends object>(server: Server): Server;
  /** A host channel whose every message both ways is recorded. */
  wrapChannel(channel: Channel): Channel;
  /** Flushes the transcript (complete once this resolves). Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens the recording `options` ask for (the --record file is created now: a path that cannot be
 * written fails the command, exit 2); without --trace or --record, wrappers that change nothing.
 */
export async function openBridgeRecording(
  subject: { transport: 'stdio' | 'http'; target: string },
  options: BridgeWireOptions,
): Promise<BridgeRecording> {
  // Parsed first, so a bad path is a usage error even when nothing is recorded.
  const redactor = new Redactor(options.redact ?? []);
  if (options.trace !== true && options.record === undefined)
    return { wrapServer: (server) => server, wrapChannel: (channel) => channel, close: async () => {} };
  const sinks: WireSink[] = [];
  if (options.record !== undefined) sinks.push(await openFileSink(options.record));
  if (options.trace === true) sinks.push(traceSink());
  const recorder = new WireRecorder({ recorder: 'mcpwire bridge', ...subject }, { sinks, redactor });
  let closing: Promise<void> | undefined;
  return {
    wrapServer: (server) => recordServer(server, recorder),
    wrapChannel: (channel) => new RecordedChannel(channel, recorder),
    close: () => (closing ??= recorder.close()),
  };
}

/**
 * `server` with each session's channel recorded (`connect`) and each request served on its own
 * (`serveRequest`: a 2026-07-28 request) recorded with its notifications and response. Every other
 * property is the server's own, so the HTTP handler finds what it looks for (eras, tool schemas).
 */
function recordServer<Server extends object>(server: Server, recorder: WireRecorder): Server {
  return new Proxy(server, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key === 'connect') {
        const connect = value as (channel: Channel) => unknown;
        return (channel: Channel) => {
          recorder.record({ type: 'note', text: 'a client opened a session' });
          return connect.call(target, new RecordedChannel(channel, recorder));
        };
      }
      if (key === 'serveRequest') {
        const serve = value as (request: JsonRpcRequest, via: RequestVia) => Promise<JsonRpcResponse>;
        return async (request: JsonRpcRequest, via: RequestVia) => {
          recorder.message('client', request);
          const response = await serve.call(target, request, new RecordedVia(via, recorder));
          recorder.message('server', response);
          return response;
        };
      }
      return (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
}

/** A channel whose frames received are recorded as the client's, and messages sent as the server's. */
class RecordedChannel implements Channel {
  readonly #inner: Channel;
  readonly #recorder: WireRecorder;

  constructor(inner: Channel, recorder: WireRecorder) {
    this.#inner = inner;
    this.#recorder = recorder;
  }

  get info(): ChannelInfo {
    return this.#inner.info ?? {};
  }

  // The session's record, where the transport keeps one: the server must still find it.
  get sessionState(): Channel['sessionState'] & object {
    return this.#inner.sessionState!;
  }

  open(receiver: ChannelReceiver): void {
    this.#inner.open({
      handleFrame: (frame) => {
        this.#recordFrame(frame);
        receiver.handleFrame(frame);
      },
      handleClose: (error) => receiver.handleClose(error),
    });
  }

  send(message: Message | readonly Message[], options?: SendOptions): Promise<void> {
    this.#recorder.message('server', message);
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  #recordFrame(frame: Frame): void {
    for (const item of frame.type === 'batch' ? frame.items : [frame]) {
      if (item.type === 'message') this.#recorder.message('client', item.message);
      else
        this.#recorder.record({
          type: 'note',
          text: `the client sent what is no JSON-RPC message: ${item.response.error.message}`,
        });
    }
  }
}

/** A 2026-07-28 request's way back, its notifications recorded as the server's. */
class RecordedVia implements RequestVia {
  readonly #inner: RequestVia;
  readonly #recorder: WireRecorder;

  constructor(inner: RequestVia, recorder: WireRecorder) {
    this.#inner = inner;
    this.#recorder = recorder;
  }

  get protocolVersion(): string | undefined {
    return this.#inner.protocolVersion;
  }

  get signal(): AbortSignal {
    return this.#inner.signal;
  }

  get isCancelled(): boolean {
    return this.#inner.isCancelled;
  }

  notify(method: string, params: JsonObject, options?: SendOptions): Promise<void> {
    this.#recorder.message('server', { jsonrpc: '2.0', method, params });
    return this.#inner.notify(method, params, options);
  }

  principalOf(requestId: RequestId): ReturnType<RequestVia['principalOf']> {
    return this.#inner.principalOf(requestId);
  }
}
