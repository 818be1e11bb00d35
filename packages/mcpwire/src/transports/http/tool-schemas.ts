// The default `toolSchema` lookup: a tool's inputSchema, asked of the server itself with stateless
// `tools/list` requests on a one-shot in-process channel. Always current: tools may come and go.

import type { Frame } from '../../jsonrpc/codec.ts';
import type { JsonObject, JsonRpcRequest, Message } from '../../jsonrpc/message.ts';
import { STATELESS_VERSIONS } from '../../protocol/revisions.ts';
import { MetaKey } from '../../protocol/types/index.ts';
import type { Channel, ChannelReceiver } from '../channel.ts';
import type { ChannelServer } from './options.ts';

/** Pages read at most while looking for one tool. */
const MAX_PAGES = 100;

/**
 * Returns a lookup of a tool's inputSchema through `server`. `meta` is the calling request's `_meta`:
 * its client capabilities and info are passed on, so a server that lists tools per client answers
 * as it would that client. Resolves undefined for an unknown tool or a failed listing.
 */
export function createToolSchemaLookup(
  server: ChannelServer,
): (name: string, meta: JsonObject) => Promise<object | undefined> {
  return async (name, meta) => {
    const envelope: JsonObject = {
      [MetaKey.protocolVersion]: STATELESS_VERSIONS[0],
      [MetaKey.clientCapabilities]: meta[MetaKey.clientCapabilities] ?? {},
    };
    if (meta[MetaKey.clientInfo] !== undefined) envelope[MetaKey.clientInfo] = meta[MetaKey.clientInfo];
    let cursor: unknown;
    for (let page = 0; page < MAX_PAGES; page++) {
      const params: JsonObject = cursor === undefined ? { _meta: envelope } : { cursor, _meta: envelope };
      const result = await callOnce(server, { jsonrpc: '2.0', id: 1, method: 'tools/list', params });
      const tools = Array.isArray(result?.tools) ? (result.tools as JsonObject[]) : [];
      const tool = tools.find((candidate) => candidate.name === name);
      if (tool) return typeof tool.inputSchema === 'object' ? (tool.inputSchema as object) : undefined;
      cursor = result?.nextCursor;
      if (typeof cursor !== 'string') return undefined;
    }
    return undefined;
  };
}

/** Serves one request on a fresh channel; resolves with its result, or undefined on an error response. */
function callOnce(server: ChannelServer, request: JsonRpcRequest): Promise<JsonObject | undefined> {
  return new Promise((resolve) => {
    let receiver: ChannelReceiver | undefined;
    let isClosed = false;
    const channel: Channel = {
      open(next) {
        receiver = next;
        const frame: Frame = { type: 'message', message: request };
        queueMicrotask(() => next.handleFrame(frame));
      },
      send(message: Message | readonly Message[]) {
        const single = Array.isArray(message) ? undefined : (message as Message);
        if (single && !('method' in single) && single.id === request.id) {
          resolve('result' in single ? single.result : undefined);
          queueMicrotask(() => void channel.close());
        }
        return Promise.resolve();
      },
      close() {
        if (!isClosed) {
          isClosed = true;
          resolve(undefined);
          receiver?.handleClose();
        }
        return Promise.resolve();
      },
    };
    server.connect(channel);
  });
}
