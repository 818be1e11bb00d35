// Helpers for in-process tests of the Streamable HTTP handler: building requests of either era and
// reading SSE bodies event by event (a deliberately naive parser: the handler's output is the subject).

import type { JsonObject } from '../../src/jsonrpc/message.ts';

export const ENDPOINT = 'http://localhost/mcp';

/** A JSON value as received: loosely typed on purpose, since the tests assert on its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;
export const STATELESS_VERSION = '2026-07-28';

/** The `_meta` envelope of a stateless-era request. */
export function statelessMeta(extra: JsonObject = {}): JsonObject {
  return {
    'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'http-kit', version: '1.0.0' },
    ...extra,
  };
}

/** A POST of `body` (serialised unless a string) with JSON and SSE accepted. */
export function post(body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Request {
  return new Request(ENDPOINT, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** Which body field `Mcp-Name` mirrors. */
const NAME_FIELD: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/**
 * A stateless-era request POST with the envelope and every standard header set right; `headers`
 * overrides them (a value of null removes one), `meta` extends the envelope.
 */
export function statelessPost(
  method: string,
  params: JsonObject = {},
  options: {
    id?: number | string;
    headers?: Record<string, string | null>;
    meta?: JsonObject;
    signal?: AbortSignal;
  } = {},
): Request {
  const field = NAME_FIELD[method];
  const headers: Record<string, string | null> = {
    'MCP-Protocol-Version': STATELESS_VERSION,
    'Mcp-Method': method,
    ...(field !== undefined && typeof params[field] === 'string' ? { 'Mcp-Name': params[field] } : {}),
    ...options.headers,
  };
  const body = {
    jsonrpc: '2.0',
    id: options.id ?? 1,
    method,
    params: { ...params, _meta: statelessMeta(options.meta) },
  };
  const kept = Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== null),
  );
  return post(body, kept, options.signal);
}

/** One parsed SSE event. */
export interface SseFrame {
  id?: string;
  event?: string;
  retry?: number;
  data: string;
  comments: string[];
}

/** Reads SSE events off a response body one at a time. */
export class SseReader {
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #decoder = new TextDecoder();
  #buffer = '';

  constructor(response: Response) {
    if (!response.body) throw new Error('no body');
    this.#reader = response.body.getReader();
  }

  /** The next event (comments included), or undefined at the end of the body. */
  async next(): Promise<SseFrame | undefined> {
    for (;;) {
      const end = this.#buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        return parseBlock(block);
      }
      const { done, value } = await this.#reader.read();
      if (done) return undefined;
      this.#buffer += this.#decoder.decode(value, { stream: true });
    }
  }

  /** The next event that carries a JSON-RPC message, parsed (priming events and comments skipped). */
  async nextMessage(): Promise<JsonObject | undefined> {
    for (;;) {
      const frame = await this.next();
      if (!frame) return undefined;
      if (frame.data !== '') return JSON.parse(frame.data) as JsonObject;
    }
  }

  /** Every remaining event, until the body ends. */
  async rest(): Promise<SseFrame[]> {
    const frames: SseFrame[] = [];
    for (let frame = await this.next(); frame; frame = await this.next()) frames.push(frame);
    return frames;
  }

  /** Cancels the body: the client going away. */
  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

function parseBlock(block: string): SseFrame {
  const frame: SseFrame = { data: '', comments: [] };
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) frame.comments.push(line.slice(1).trim());
    else {
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'id') frame.id = value;
      else if (field === 'event') frame.event = value;
      else if (field === 'retry') frame.retry = Number(value);
    }
  }
  frame.data = data.join('\n');
  return frame;
}

/** The messages of a finished SSE body, in order. */
export async function sseMessages(response: Response): Promise<JsonObject[]> {
  const frames = await new SseReader(response).rest();
  return frames.filter((frame) => frame.data !== '').map((frame) => JSON.parse(frame.data) as JsonObject);
}
