// A raw MCP-over-HTTP peer for the security tests: JSON-RPC POSTed with fetch (no SDK in the way, so
// a test can send what a hostile client would), the answer read whether it comes as JSON or as SSE.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './free-port.ts';
import { CLI, ROOT } from './raw-server-process.ts';

/** A JSON value as received: loosely typed on purpose, since the tests assert on its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

/** One HTTP answer: its status and headers, and the JSON-RPC response in it (undefined: none). */
export interface RawReply {
  status: number;
  headers: Headers;
  message: Loose;
}

/** The stateless era's revision. */
export const STATELESS_VERSION = '2026-07-28';

/**
 * POSTs `body` to `url` with JSON and SSE accepted and resolves once the whole body is read: the
 * JSON body, or the last JSON-RPC response among the SSE events (notifications before it skipped).
 */
export async function postRaw(
  url: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<RawReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, message: parseAnswer(response, text) };
}

function parseAnswer(response: Response, text: string): Loose {
  if (text === '') return undefined;
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return JSON.parse(text);
  let answer: Loose;
  for (const line of text.split('\n')) {
    // A priming event (HTTP-9) has an empty data line.
    if (!line.startsWith('data:') || line.slice(5).trim() === '') continue;
    const message = JSON.parse(line.slice(5).trim()) as Loose;
    if (message.id !== undefined && message.method === undefined) answer = message;
  }
  return answer;
}

/** A handshake-era `initialize` request (id 1) as raw JSON: 2025-11-25, no capabilities, unless told. */
export function initializeMessage(options: { protocolVersion?: string; capabilities?: object } = {}): object {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: options.protocolVersion ?? '2025-11-25',
      capabilities: options.capabilities ?? {},
      clientInfo: { name: 'raw', version: '1' },
    },
  };
}

/** A handshake-era session opened with raw POSTs: `initialize`, `notifications/initialized`, then requests. */
export class RawHttpSession {
  readonly url: string;
  readonly sessionId: string;
  readonly protocolVersion: string;
  #nextId = 2;

  private constructor(url: string, sessionId: string, protocolVersion: string) {
    this.url = url;
    this.sessionId = sessionId;
    this.protocolVersion = protocolVersion;
  }

  /** Opens a session at `url`; rejects unless `initialize` is answered 200 with a session id. */
  static async open(
    url: string,
    options: { protocolVersion?: string; capabilities?: object; headers?: Record<string, string> } = {},
  ): Promise<RawHttpSession> {
    const protocolVersion = options.protocolVersion ?? '2025-11-25';
    const reply = await postRaw(
      url,
      initializeMessage({ protocolVersion, capabilities: options.capabilities ?? {} }),
      options.headers,
    );
    const sessionId = reply.headers.get('mcp-session-id');
    if (reply.status !== 200 || sessionId === null)
      throw new Error(`initialize answered ${reply.status}: ${JSON.stringify(reply.message)}`);
    const session = new RawHttpSession(url, sessionId, protocolVersion);
    const initialized = await session.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    if (initialized.status !== 202)
      throw new Error(`notifications/initialized answered ${initialized.status}`);
    return session;
  }

  /** POSTs `body` in this session (its id and revision headers set). */
  post(body: object, headers: Record<string, string> = {}): Promise<RawReply> {
    return postRaw(this.url, body, {
      'Mcp-Session-Id': this.sessionId,
      'MCP-Protocol-Version': this.protocolVersion,
      ...headers,
    });
  }

  /** One request in this session; resolves with its JSON-RPC response. */
  async request(method: string, params: object = {}): Promise<Loose> {
    const reply = await this.post({ jsonrpc: '2.0', id: this.#nextId++, method, params });
    if (reply.message === undefined) throw new Error(`${method} answered ${reply.status} with no response`);
    return reply.message;
  }
}

/** Which body field `Mcp-Name` mirrors (S26-HDR). */
const NAME_FIELD: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * One stateless-era request (its `_meta` envelope with `capabilities`, and the standard headers);
 * `params` may carry `inputResponses` and `requestState` of a retry.
 */
export function statelessRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: { id?: number; capabilities?: object; headers?: Record<string, string> } = {},
): Promise<RawReply> {
  const field = NAME_FIELD[method];
  const name = field === undefined ? undefined : params[field];
  return postRaw(
    url,
    {
      jsonrpc: '2.0',
      id: options.id ?? 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION,
          'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
      },
    },
    {
      'MCP-Protocol-Version': STATELESS_VERSION,
      'Mcp-Method': method,
      ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
      ...options.headers,
    },
  );
}

/**
 * `mcpwire serve <args> --http <port>` from source as a child process on a free port of 127.0.0.1;
 * resolves once the endpoint answers (each try waits for the refused connection, no sleep). Dispose
 * to stop it.
 */
export async function spawnHttpServer(args: readonly string[]): Promise<{ url: string } & AsyncDisposable> {
  const port = await freePort();
  const child = spawn(process.execPath, [...CLI, 'serve', ...args, '--http', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit');
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`the server exited before listening:\n${stderr}`);
    try {
      await fetch(url, { method: 'OPTIONS' });
      return { url, [Symbol.asyncDispose]: stop };
    } catch (error) {
      if (attempt > 3000) {
        await stop();
        throw new Error(`the server did not listen:\n${stderr}`, { cause: error });
      }
    }
  }
}
