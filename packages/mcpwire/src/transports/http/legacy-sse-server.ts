// The server side of the deprecated HTTP+SSE transport of revision 2024-11-05 (COMPAT-1, COMPAT-3):
// GET on the SSE path opens a session stream, POSTs to the endpoint it names carry client messages.

import { decodeFrame } from '../../jsonrpc/codec.ts';
import {
  emptyReply,
  type ExchangeHandler,
  type HttpReply,
  type HttpRequestView,
  toResponse,
  viewOfRequest,
} from './exchange.ts';
import { errorReply, jsonReply, TRANSPORT_ERROR } from './json-response.ts';
import { LegacySseChannel } from './legacy-sse-channel.ts';
import type { ChannelServer } from './options.ts';
import {
  corsHeaders,
  isHostAllowed,
  isOriginAllowed,
  LOOPBACK_HOSTNAMES,
  preflightResponse,
  type SecurityPolicy,
} from './security.ts';
import { SSE_HEADERS } from './sse-writer.ts';

/** Options of {@link createLegacySseHandler}. */
export interface LegacySseHandlerOptions {
  /** The path a client GETs to open its session stream; default `/sse`. */
  ssePath?: string;
  /** The path the `endpoint` event points POSTs at; default `/messages`. May equal `ssePath`. */
  messagesPath?: string;
  /** The largest POST body accepted, in bytes; default 4 MiB. A larger one is answered 413. */
  maxBodyBytes?: number;
  /** Browser origins accepted besides loopback ones (exact, e.g. `https://app.example`), or `*`. */
  allowedOrigins?: readonly string[];
  /** Host header values accepted (DNS rebinding): hostnames (any port), `host:port`, or `*`. Default loopback. */
  allowedHosts?: readonly string[];
  /** Milliseconds between keep-alive comments on an idle stream; default 30,000; 0 sends none. */
  keepAliveMs?: number;
}

/**
 * An HTTP handler that answers only its own paths and resolves `undefined` for any other;
 * `exchange` is the same on a request view (`mcpwire/node`); `close` ends every open session stream.
 */
export type LegacySseHandler = ((request: Request) => Promise<Response | undefined>) & {
  readonly exchange: ExchangeHandler;
  close(): Promise<void>;
};

interface Config {
  ssePath: string;
  messagesPath: string;
  maxBodyBytes: number;
  keepAliveMs: number;
  policy: SecurityPolicy;
}

/**
 * Creates the handler of the 2024-11-05 HTTP+SSE transport for `server`. A GET on `ssePath` opens
 * one session: a fresh cryptographically random id, `server.connect` with its channel, and an SSE
 * response whose first event is `endpoint` (data: `messagesPath?sessionId=<id>`) and whose further
 * events are `message`s, each one JSON-RPC message from the server. A POST to that URI delivers one
 * message (or batch) to the session, in arrival order, and is answered 202; malformed JSON or an
 * invalid message 400 (with the JSON-RPC error), a missing session id 400, an unknown or closed
 * session 404, a non-JSON content type 415, a body over `maxBodyBytes` 413. A Host or Origin that is
 * not allowed is 403 on either path (COMPAT-3: validate Origin), a wrong method 405, and OPTIONS the
 * CORS preflight. The session ends when its stream does (the client disconnects or cancels it, or
 * the server closes the channel), and its id is forgotten. Other paths resolve `undefined`, so this
 * handler can run before the Streamable HTTP one (COMPAT-1). Throws RangeError for invalid options;
 * the returned handler rejects only if `server.connect` throws.
 */
export function createLegacySseHandler(
  server: ChannelServer,
  options: LegacySseHandlerOptions = {},
): LegacySseHandler {
  const config = resolveConfig(options);
  const sessions = new Map<string, LegacySseChannel>();
  const exchange = (request: HttpRequestView): Promise<HttpReply | undefined> | undefined => {
    const isSse = request.pathname === config.ssePath;
    const isMessages = request.pathname === config.messagesPath;
    // Streamable HTTP's requests pass through here first (COMPAT-1): declined without a promise.
    if (!isSse && !isMessages) return undefined;
    return serve(request, isSse, isMessages);
  };
  const serve = async (
    request: HttpRequestView,
    isSse: boolean,
    isMessages: boolean,
  ): Promise<HttpReply | undefined> => {
    if (!isHostAllowed(request.host, config.policy)) return refuse(403, 'Forbidden: Host not allowed');
    const origin = request.headers.get('origin');
    if (!isOriginAllowed(origin, config.policy)) return refuse(403, 'Forbidden: Origin not allowed');
    if (request.method === 'OPTIONS') return preflightResponse(request.headers, origin);
    let reply: HttpReply;
    if (isSse && request.method === 'GET') {
      reply = openSession(server, request, config, sessions);
    } else if (isMessages && request.method === 'POST') {
      reply = await handlePost(request, config, sessions);
    } else {
      reply = notAllowed([isSse ? 'GET' : '', isMessages ? 'POST' : ''].filter(Boolean).join(', '));
    }
    Object.assign(reply.headers, corsHeaders(origin));
    return reply;
  };
  const handler = async (request: Request): Promise<Response | undefined> => {
    const reply = await exchange(viewOfRequest(request));
    return reply && toResponse(reply);
  };
  const close = async (): Promise<void> => {
    await Promise.all([...sessions.values()].map((channel) => channel.close()));
  };
  return Object.assign(handler, { exchange, close });
}

function openSession(
  server: ChannelServer,
  request: HttpRequestView,
  config: Config,
  sessions: Map<string, LegacySseChannel>,
): HttpReply {
  const sessionId = crypto.randomUUID();
  const channel = new LegacySseChannel({
    sessionId,
    endpoint: `${config.messagesPath}?sessionId=${sessionId}`,
    keepAliveMs: config.keepAliveMs,
    signal: request.signal,
    handleRelease: () => sessions.delete(sessionId),
  });
  if (!channel.isClosed) sessions.set(sessionId, channel);
  try {
    server.connect(channel);
  } catch (error) {
    void channel.close();
    throw error;
  }
  return { status: 200, headers: { ...SSE_HEADERS }, body: channel.body };
}

async function handlePost(
  request: HttpRequestView,
  config: Config,
  sessions: Map<string, LegacySseChannel>,
): Promise<HttpReply> {
  const sessionId = request.searchParams.get('sessionId');
  if (!sessionId) return refuse(400, 'Bad Request: expected a sessionId query parameter');
  const channel = sessions.get(sessionId);
  // "no session": the id is unknown, or its stream closed and the id was forgotten.
  if (!channel) return refuse(404, 'Not Found: no session with this sessionId');
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return refuse(415, 'Unsupported Media Type: the body must be application/json');
  }
  let body: Awaited<ReturnType<HttpRequestView['readBody']>>;
  try {
    body = await request.readBody(config.maxBodyBytes);
  } catch {
    return refuse(400, 'Bad Request: the body could not be read');
  }
  if ('tooLarge' in body) return refuse(413, `Payload Too Large: the limit is ${config.maxBodyBytes} bytes`);
  const frame = decodeFrame(body.text);
  // A message that is not valid JSON-RPC never reaches the session; its error goes back on the POST.
  if (frame.type === 'invalid') return jsonReply(frame.response, 400);
  if (channel.isClosed) return refuse(404, 'Not Found: the session closed while this message was read');
  channel.deliver(frame);
  return emptyReply(202);
}

function refuse(status: number, message: string): HttpReply {
  return errorReply({ status, code: TRANSPORT_ERROR, message });
}

function notAllowed(allow: string): HttpReply {
  return errorReply({
    status: 405,
    code: TRANSPORT_ERROR,
    message: `Method Not Allowed: use ${allow}`,
    headers: { Allow: allow },
  });
}

function resolveConfig(options: LegacySseHandlerOptions): Config {
  const ssePath = checkPath('ssePath', options.ssePath ?? '/sse');
  const messagesPath = checkPath('messagesPath', options.messagesPath ?? '/messages');
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new RangeError(`maxBodyBytes must be a positive integer, got ${maxBodyBytes}`);
  }
  const keepAliveMs = options.keepAliveMs ?? 30_000;
  if (!Number.isFinite(keepAliveMs) || keepAliveMs < 0) {
    throw new RangeError(`keepAliveMs must be a finite number >= 0, got ${keepAliveMs}`);
  }
  const policy: SecurityPolicy = {
    allowedHosts: options.allowedHosts ?? LOOPBACK_HOSTNAMES,
    allowedOrigins: options.allowedOrigins ?? [],
  };
  return { ssePath, messagesPath, maxBodyBytes, keepAliveMs, policy };
}

function checkPath(name: string, path: string): string {
  // Compared with URL.pathname, and sent as SSE data: a plain absolute path, no query or line breaks.
  if (!/^\/[^?#\s]*$/.test(path))
    throw new RangeError(`${name} must be a path starting with "/", got "${path}"`);
  return path;
}
