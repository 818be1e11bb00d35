// `bridge --http <port> <url>`: 2026-07-28 (stateless-era) requests in front of a remote server. The
// remote's era is found once (the library Client's `auto` probe): a 2026-07-28 remote gets each
// request passed through as it is, on a channel of its own; a handshake-only remote is served by the
// 2026-07-28 front (era-front.ts) with the remote as its upstream instead of a child.

import {
  ErrorCode,
  isNotification,
  isResponse,
  type Frame,
  type JsonObject,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Message,
  type Transport,
} from 'mcpwire';
import type { RequestVia } from 'mcpwire/http';
import { Client } from 'mcpwire/client';
import { EraFront } from './era-front.ts';

/** What the stateless side needs: a new transport to the remote (its auth and headers set), notes. */
export interface StatelessRemoteOptions {
  readonly connect: () => Transport;
  readonly onNote: (text: string) => void;
}

type Route = { era: 'stateless' } | { era: 'handshake'; front: EraFront };

/**
 * Serves stateless-era requests (`serveRequest`, as the library's HTTP endpoint calls it) through the
 * remote. The era is decided at the first request and kept; a probe that fails (the remote down) is
 * not kept, so the next request probes again.
 */
export class StatelessRemote {
  readonly #options: StatelessRemoteOptions;
  #route: Promise<Route> | undefined;
  #isClosed = false;

  constructor(options: StatelessRemoteOptions) {
    this.#options = options;
  }

  async serveRequest(request: JsonRpcRequest, via: RequestVia): Promise<JsonRpcResponse> {
    let route: Route;
    try {
      route = await this.#ready();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return errorResponse(request, `mcpwire bridge: the remote server cannot be reached (${reason})`);
    }
    if (route.era === 'handshake') return route.front.serveRequest(request, via);
    return passThrough(this.#options.connect(), request, via);
  }

  /** A tool's input schema for the endpoint's `Mcp-Param` checks: known only when translating. */
  toolInputSchema(name: string): object | undefined {
    return this.#known?.era === 'handshake' ? this.#known.front.toolInputSchema(name) : undefined;
  }

  async close(): Promise<void> {
    this.#isClosed = true;
    const route = await this.#route?.catch(() => undefined);
    if (route?.era === 'handshake') await route.front.close();
  }

  #known: Route | undefined;

  #ready(): Promise<Route> {
    if (this.#isClosed) return Promise.reject(new Error('the bridge is stopping'));
    this.#route ??= this.#probe();
    this.#route.then(
      (route) => (this.#known = route),
      () => (this.#route = undefined),
    );
    return this.#route;
  }

  /** Asks the remote which era it speaks: `server/discover`, else `initialize` (that session is then deleted). */
  async #probe(): Promise<Route> {
    const client = new Client(
      { name: 'mcpwire-bridge', version: '1' },
      { era: 'auto', eraCache: false, onError: (error) => this.#options.onNote(error.message) },
    );
    await client.connect(this.#options.connect());
    const era = client.era;
    await client.close().catch(() => {});
    if (era === 'stateless') return { era: 'stateless' };
    this.#options.onNote('the remote speaks only the handshake era: 2026-07-28 clients are translated');
    const front = new EraFront({
      transport: this.#options.connect(),
      onStderr: () => {},
      onNote: this.#options.onNote,
      env: {},
    });
    return { era: 'handshake', front };
  }
}

/**
 * One 2026-07-28 request passed to the remote as it is (ids, `_meta` and every field unchanged) on a
 * channel of its own, so every notification the channel receives belongs to it: each goes to the
 * client on the request's stream, the response is returned. The client leaving closes the channel,
 * which cancels the request upstream (S26-HTTP-10).
 */
export async function passThrough(
  transport: Transport,
  request: JsonRpcRequest,
  via: RequestVia,
): Promise<JsonRpcResponse> {
  const channel = await transport.connect();
  let answer: JsonRpcResponse | undefined;
  channel.open({
    handleFrame: (frame) => {
      for (const message of messagesOf(frame)) {
        if (isResponse(message) && message.id === request.id) answer ??= message as JsonRpcResponse;
        else if (isNotification(message))
          via.notify(message.method, (message.params ?? {}) as JsonObject).catch(() => {});
      }
    },
    handleClose: () => {},
  });
  const onAbort = (): void => void channel.close();
  via.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await channel.send(request);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    answer ??= errorResponse(request, `mcpwire bridge: the remote server failed: ${reason}`);
  } finally {
    via.signal.removeEventListener('abort', onAbort);
    await channel.close().catch(() => {});
  }
  return answer ?? errorResponse(request, 'mcpwire bridge: the remote server sent no response');
}

function errorResponse(request: JsonRpcRequest, message: string): JsonRpcResponse {
  return { jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InternalError, message } };
}

function messagesOf(frame: Frame): Message[] {
  if (frame.type === 'message') return [frame.message];
  if (frame.type === 'batch')
    return frame.items.flatMap((item) => (item.type === 'message' ? [item.message] : []));
  return [];
}
