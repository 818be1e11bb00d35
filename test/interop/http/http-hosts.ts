// The HTTP peers of the interop tests over real sockets on 127.0.0.1: our everything server in-process
// (Streamable HTTP on /mcp, HTTP+SSE on /sse), the official `@modelcontextprotocol/server-everything` as a child
// process, and a fetch wrapper that records what crossed the wire, stream by stream.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

import { createEverythingServer } from '@mcpwire/server-everything';
import { chainHandlers, createHttpHandler, createLegacySseHandler, decodeSse } from 'mcpwire/http';
import { serveHttp } from 'mcpwire/node';
import { REPO_ROOT, StderrTail } from '../stdio-peers.ts';
import { freePort } from '../../support/free-port.ts';
import { officialEverythingEntry } from '../../support/official-everything.ts';

/** Our everything server behind both HTTP transports, on one port. */
export interface OurHttpServer {
  /** The Streamable HTTP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** The HTTP+SSE (2024-11-05) stream path, `http://127.0.0.1:<port>/sse`. */
  readonly sseUrl: string;
  close(): Promise<void>;
}

/** Starts `createEverythingServer()` with the legacy SSE handler chained before the Streamable HTTP one. */
export async function startOurHttpServer(): Promise<OurHttpServer> {
  const server = createEverythingServer();
  const streamable = createHttpHandler(server);
  const handshake = createLegacySseHandler(server);
  const handle = await serveHttp(chainHandlers(handshake, streamable), { port: 0 });
  return { url: handle.url, sseUrl: new URL('/sse', handle.url).href, close: () => handle.close() };
}

/** One HTTP request a client made: method, the JSON-RPC method(s) of its body, whether it carried a session. */
export interface HttpExchange {
  method: string;
  /** The JSON-RPC methods in a POST body (`result`/`error` for responses), in order. */
  rpc: string[];
  sessionId: string | null;
  protocolVersion: string | null;
  status: number;
  /** The response's `Mcp-Session-Id`, if any. */
  assignedSessionId: string | null;
}

/**
 * Wraps the global fetch for an SDK transport's `fetch` option: records every exchange and the JSON-RPC
 * methods of every message that arrived on a GET event stream (the session's standalone stream).
 */
export class HttpWireLog {
  readonly exchanges: HttpExchange[] = [];
  /** Methods of the messages that arrived on GET streams, in arrival order. */
  readonly getStreamMethods: string[] = [];

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const rpc = request.method === 'POST' ? rpcMethods(await request.clone().text()) : [];
    const response = await fetch(request);
    this.exchanges.push({
      method: request.method,
      rpc,
      sessionId: request.headers.get('mcp-session-id'),
      protocolVersion: request.headers.get('mcp-protocol-version'),
      status: response.status,
      assignedSessionId: response.headers.get('mcp-session-id'),
    });
    const isEventStream = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
    if (request.method !== 'GET' || !isEventStream || response.body === null) return response;
    const [mine, theirs] = response.body.tee();
    void this.#watch(mine);
    return new Response(theirs, { status: response.status, headers: response.headers });
  };

  /** The exchanges as `METHOD rpc…` lines, ` +session` when the request carried a session id. */
  lines(): string[] {
    return this.exchanges.map(
      (entry) =>
        `${[entry.method, ...entry.rpc].join(' ')}${entry.sessionId === null ? '' : ' +session'} -> ${entry.status}`,
    );
  }

  async #watch(body: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const event of decodeSse(body)) {
        if (event.data !== '') this.getStreamMethods.push(...rpcMethods(event.data));
      }
    } catch {
      // The stream ends when the client or the server closes it; nothing to record.
    }
  }
}

function rpcMethods(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).map((message: unknown) => {
    const record = (typeof message === 'object' && message !== null ? message : {}) as Record<
      string,
      unknown
    >;
    if (typeof record.method === 'string') return record.method;
    return 'error' in record ? 'error' : 'result';
  });
}

/** `@modelcontextprotocol/server-everything` running one of its HTTP transports as a child process. */
export interface ServerEverythingProcess {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly stderr: StderrTail;
  close(): Promise<void>;
}

const LISTENING = /(?:listening on port|running on port) (\d+)/;

/**
 * Starts `mcp-server-everything <mode>` on a free port (its `PORT` variable), resolving once it reports
 * that it listens (on stderr), or rejecting if it exits first or stays silent for 15 s.
 */
export async function startServerEverything(
  mode: 'streamableHttp' | 'sse',
): Promise<ServerEverythingProcess> {
  const port = await freePort();
  const entry = officialEverythingEntry();
  const stderr = new StderrTail();
  // A minimal environment: no NODE_OPTIONS (tsx and our wire check are for mcpwire processes).
  const child: ChildProcess = spawn(process.execPath, [entry, mode], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`no "listening" line within 15 s:\n${stderr}`)), 15_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr.write(chunk);
      seen += chunk;
      const match = LISTENING.exec(seen);
      if (match === null) return;
      clearTimeout(timer);
      if (match[1] === String(port)) resolve();
      else fail(new Error(`server-everything listens on ${match[1]}, not ${port}`));
    });
    child.once('exit', (code, signal) => {
      fail(new Error(`server-everything exited (${code ?? signal}) before listening:\n${stderr}`));
    });
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    stderr,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
