// The Streamable HTTP server as a web-standard function, `(Request) => Promise<Response>`: one
// endpoint serving both eras (endpoint.ts), handshake-era clients in sessions (HTTP-25..35). For
// runtimes whose requests share no memory, createSessionlessHandler (sessionless-handler.ts).

import type { JsonObject } from '../../jsonrpc/message.ts';
import { InMemoryEventStore } from './event-store.ts';
import { createEndpoint, type HttpHandler } from './endpoint.ts';
import { handleHandshakeDelete, handleHandshakeGet, handleHandshakePost } from './handshake-routes.ts';
import type { ToolSchemaLookup } from './stateless-route.ts';
import {
  resolveOptions,
  type ChannelServer,
  type FanOutSource,
  type HttpHandlerOptions,
  type ListKind,
  type ToolSchemaSource,
} from './options.ts';
import { BusTopic, InMemoryMessageBus, whenSubscribed, type MessageBus } from './message-bus.ts';
import { InMemorySessionStore, type Awaitable } from './session-store.ts';
import { SessionRegistry } from './sessions.ts';
import { createToolSchemaLookup } from './tool-schemas.ts';

export type { HttpHandler } from './endpoint.ts';

/**
 * Creates the MCP endpoint for `server`. Checks, in order: path (404), Host (403), Origin (403),
 * CORS preflight, `authenticate` (401); then POST bodies are classified and served by era, and GET or
 * DELETE go to handshake-era sessions (405 when they name a stateless-era version). Never throws:
 * an unexpected failure is reported to `onError` and answered 500.
 */
export function createHttpHandler(
  server: ChannelServer & ToolSchemaSource & FanOutSource,
  options: HttpHandlerOptions = {},
): HttpHandler {
  const config = resolveOptions(options);
  const bus = options.bus ?? new InMemoryMessageBus();
  const sessions = new SessionRegistry(
    {
      maxSessions: config.maxSessions,
      maxSessionsPerClient: config.maxSessionsPerClient,
      idleTimeoutMs: config.sessionIdleTimeoutMs,
    },
    {
      store: options.eventStore ?? new InMemoryEventStore(),
      sessions: options.sessions ?? new InMemorySessionStore(),
      leases: options.leases,
      retryMs: config.retryMs,
      keepAliveMs: config.keepAliveMs,
      maxSseBufferBytes: config.maxSseBufferBytes,
      closeSseStreamsAfterMs: config.closeSseStreamsAfterMs,
      sseAfterMs: config.sseAfterMs,
      onError: config.onError,
    },
    bus,
  );
  const fanOut = connectFanOut(server, bus, sessions, config.onError);
  const custom = config.toolSchema;
  // A server that can name a tool's schema directly spares a tools/list round per tools/call.
  const direct = server.toolInputSchema?.bind(server);
  const toolSchema: ToolSchemaLookup = custom
    ? (name) => custom(name)
    : direct
      ? (name) => direct(name)
      : createToolSchemaLookup(server);
  const { clientKey } = config;
  return createEndpoint(
    server,
    config,
    toolSchema,
    {
      post: (request, frame, isInitialize, accepts, principal) =>
        handleHandshakePost(request, frame, isInitialize, accepts, {
          server,
          sessions,
          principal,
          clientKey,
        }),
      get: (request, principal) => handleHandshakeGet(request, { server, sessions, principal }),
      delete: (request, principal) => handleHandshakeDelete(request, { server, sessions, principal }),
      close: () => {
        fanOut.stop();
        return sessions.closeAll();
      },
    },
    whenSubscribed([sessions.ready, fanOut.ready]),
  );
}

/**
 * Carries the server's list changes and resource updates to the other handlers on the bus, and
 * theirs to this server's sessions (relayed, so they are not published again). Returns `stop`,
 * which stops both ways, and `ready`, settled once the bus subscriptions are in place (undefined
 * when none waited).
 */
function connectFanOut(
  server: FanOutSource,
  bus: MessageBus,
  sessions: SessionRegistry,
  onError: (error: Error) => void,
): { stop(): void; ready: Promise<void> | undefined } {
  const off: Array<() => void> = [];
  const made: Array<Awaitable<unknown>> = [];
  let isStopped = false;
  const listen = (topic: string, listener: (message: JsonObject) => void): void => {
    const pending = bus.subscribe(topic, (message) => {
      if (message.from !== sessions.busId) listener(message);
    });
    made.push(pending);
    if (pending instanceof Promise)
      pending.then(
        (fn) => (isStopped ? fn() : off.push(fn)),
        (error: unknown) =>
          onError(new Error(`Subscribing to ${topic} on the message bus failed`, { cause: error })),
      );
    else off.push(pending);
  };
  if (server.onListChanged && server.relayListChanged) {
    off.push(server.onListChanged((kind) => sessions.publish(BusTopic.listChanged, { kind })));
    listen(BusTopic.listChanged, (message) => {
      if (isListKind(message.kind)) server.relayListChanged?.(message.kind);
    });
  }
  if (server.onResourceUpdated && server.relayResourceUpdated) {
    off.push(server.onResourceUpdated((uri) => sessions.publish(BusTopic.resourceUpdated, { uri })));
    listen(BusTopic.resourceUpdated, (message) => {
      if (typeof message.uri === 'string') server.relayResourceUpdated?.(message.uri);
    });
  }
  return {
    stop: () => {
      isStopped = true;
      for (const fn of off.splice(0)) fn();
    },
    ready: whenSubscribed(made),
  };
}

function isListKind(value: unknown): value is ListKind {
  return value === 'tools' || value === 'prompts' || value === 'resources';
}
