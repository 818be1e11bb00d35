// A raw server peer on a memory channel, for client tests whose server misbehaves on purpose (it is
// a Peer, not a Session: no lifecycle, no table checks). It answers each request with `answer` and
// records the method of every message it receives, in order.

import type { JsonObject } from '../../src/jsonrpc/message.ts';
import { Peer } from '../../src/jsonrpc/peer.ts';
import type { Channel } from '../../src/transports/channel.ts';
import { createMemoryPair } from '../../src/transports/memory.ts';

/** Answers one request; it may throw an RpcError, never settle, or close `server`. */
export type RawAnswer = (
  method: string,
  params: JsonObject,
  server: { close(): Promise<void> },
) => JsonObject | Promise<JsonObject>;

/** A raw server: the client's end of its channel and the methods of what reached it. */
export interface RawServer {
  channel: Channel;
  /** Methods of the requests and notifications received, in arrival order. */
  received: string[];
}

/** Starts a raw server on a new memory pair. */
export function createRawServer(answer: RawAnswer): RawServer {
  const [clientSide, serverSide] = createMemoryPair();
  const received: string[] = [];
  const peer = new Peer({
    send: (message) => serverSide.send(message),
    handler: {
      handleRequest: (request) => {
        received.push(request.method);
        return answer(request.method, request.params ?? {}, serverSide);
      },
      handleNotification: (notification) => void received.push(notification.method),
    },
  });
  serverSide.open(peer);
  return { channel: clientSide, received };
}
