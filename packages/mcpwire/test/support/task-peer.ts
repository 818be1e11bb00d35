// A raw JSON-RPC client for the tasks tests: a Peer on the in-memory pair that records every message
// the server sends, answers its requests with a test's function, and speaks either era by hand.

import type { JsonObject, JsonRpcNotification, JsonRpcRequest } from '../../src/jsonrpc/message.ts';
import { Peer } from '../../src/jsonrpc/peer.ts';
import type { Server } from '../../src/server/index.ts';
import { createMemoryPair } from '../../src/transports/memory.ts';

/** The stateless era's `_meta` envelope for one request (declaring `capabilities`). */
export function statelessMeta(capabilities: JsonObject = {}): JsonObject {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'tasks-test', version: '1' },
  };
}

/** The tasks extension declared by a stateless-era request, plus form elicitation. */
export const WITH_TASKS: JsonObject = {
  elicitation: {},
  extensions: { 'io.modelcontextprotocol/tasks': {} },
};

/** A raw client connected to `server`. `answer` serves the server's requests (default: none). */
export function connectRawPeer(
  server: Server,
  answer: (request: JsonRpcRequest) => JsonObject | Promise<JsonObject> = (request) => {
    throw new Error(`unexpected server request ${request.method}`);
  },
) {
  const [clientSide, serverSide] = createMemoryPair();
  const requests: JsonRpcRequest[] = [];
  const notifications: JsonRpcNotification[] = [];
  const peer = new Peer({
    send: (message) => clientSide.send(message),
    handler: {
      handleRequest: (request) => {
        requests.push(request);
        return answer(request);
      },
      handleNotification: (notification) => void notifications.push(notification),
    },
    shouldAnswerInvalid: false,
  });
  clientSide.open(peer);
  server.connect(serverSide);
  return {
    peer,
    requests,
    notifications,
    /** A stateless-era request declaring `capabilities`. */
    stateless(
      method: string,
      params: JsonObject = {},
      capabilities: JsonObject = WITH_TASKS,
    ): Promise<JsonObject> {
      return peer.request(method, {
        ...params,
        _meta: { ...(params._meta as JsonObject), ...statelessMeta(capabilities) },
      });
    },
    /** The handshake: initialize at 2025-11-25 with `capabilities`, then initialized. */
    async initialize(capabilities: JsonObject = { elicitation: {} }): Promise<JsonObject> {
      const result = await peer.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities,
        clientInfo: { name: 'tasks-test', version: '1' },
      });
      await peer.notify('notifications/initialized');
      return result;
    },
  };
}

/** `tools/call` of `name` on two new connections: `{ message: 'a' }` after a handshake, `{ message: 'b' }` stateless. */
export async function callInBothEras(
  server: Server,
  name: string,
): Promise<{ handshake: JsonObject; stateless: JsonObject }> {
  const client = connectRawPeer(server);
  await client.initialize();
  const handshake = await client.peer.request('tools/call', { name, arguments: { message: 'a' } });
  const stateless = await connectRawPeer(server).stateless('tools/call', {
    name,
    arguments: { message: 'b' },
  });
  return { handshake, stateless };
}
