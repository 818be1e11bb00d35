// The Streamable HTTP server as a web-standard function, `(Request) => Promise<Response>`: one
// endpoint serving both eras, body first (S26 section 3.5). Runtime-neutral; adapters are thin. The
// routes work on an exchange (exchange.ts), so the Node adapter skips the web objects altogether.

import { decodeFrame, type Frame } from '../../jsonrpc/codec.ts';
import { isRequest, type JsonRpcRequest } from '../../jsonrpc/message.ts';
import { isModernVersion } from '../../protocol/revisions.ts';
import { classifyPost } from './classify.ts';
import {
  emptyReply,
  type ExchangeHandler,
  type HttpReply,
  type HttpRequestView,
  toResponse,
  viewOfRequest,
} from './exchange.ts';
import { errorReply, TRANSPORT_ERROR } from './json-response.ts';
import {
  handleLegacyDelete,
  handleLegacyGet,
  handleLegacyPost,
  type LegacyContext,
} from './legacy-routes.ts';
import { checkModernRequest, type ToolSchemaLookup } from './modern-route.ts';
import { findRepeatedHeader } from './repeated-headers.ts';
import { serveModernRequest } from './modern-exchange.ts';
import {
  resolveOptions,
  type ChannelServer,
  type HttpConfig,
  type HttpHandlerOptions,
  type Principal,
} from './options.ts';
import type { Accepts } from './post-exchange.ts';
import {
  corsHeaders,
  isHostAllowed,
  isOriginAllowed,
  preflightResponse,
  type SecurityPolicy,
} from './security.ts';
import { serverWithSender } from './sender-channel.ts';
import { SessionRegistry } from './sessions.ts';
import { createToolSchemaLookup } from './tool-schemas.ts';

/**
 * The handler: a fetch-style function, plus `close` to end every session and stream it holds, and
 * `exchange`, the same handler on a request view (what `mcpwire/node` calls, no web objects made).
 */
export interface HttpHandler {
  (request: Request): Promise<Response>;
  /** The runtime-neutral core; always answers (never undefined). */
  readonly exchange: ExchangeHandler;
  /** Closes every handshake-era session (their server sessions close too). Idempotent. */
  close(): Promise<void>;
}

/**
 * Creates the MCP endpoint for `server`. Checks, in order: path (404), Host (403), Origin (403),
 * CORS preflight, `authenticate` (401); then POST bodies are classified and served by era, and GET or
 * DELETE go to handshake-era sessions (405 when they name a stateless-era version). Never throws:
 * an unexpected failure is reported to `onError` and answered 500.
 */
export function createHttpHandler(server: ChannelServer, options: HttpHandlerOptions = {}): HttpHandler {
  const config = resolveOptions(options);
  const sessions = new SessionRegistry(
    { maxSessions: config.maxSessions, idleTimeoutMs: config.sessionIdleTimeoutMs },
    {
      store: config.eventStore,
      retryMs: config.retryMs,
      keepAliveMs: config.keepAliveMs,
      maxSseBufferBytes: config.maxSseBufferBytes,
      closeSseStreamsAfterMs: config.closeSseStreamsAfterMs,
      onError: config.onError,
    },
  );
  const custom = config.toolSchema;
  // A server that can name a tool's schema directly spares a tools/list round per tools/call.
  const direct = server.toolInputSchema?.bind(server);
  const toolSchema: ToolSchemaLookup = custom
    ? (name) => custom(name)
    : direct
      ? (name) => direct(name)
      : createToolSchemaLookup(server);
  const policy = { allowedHosts: config.allowedHosts, allowedOrigins: config.allowedOrigins };
  const context: Context = { config, server, sessions, toolSchema, policy };
  const exchange = async (view: HttpRequestView): Promise<HttpReply> => {
    const origin = view.headers.get('origin');
    let reply: HttpReply;
    try {
      reply = await route(view, context);
    } catch (error) {
      config.onError(new Error(`Handling ${view.method} ${view.pathname} failed`, { cause: error }));
      reply = errorReply({ status: 500, code: TRANSPORT_ERROR, message: 'Internal server error' });
    }
    if (reply.status !== 403 && origin !== null) Object.assign(reply.headers, corsHeaders(origin));
    return reply;
  };
  const handler = async (request: Request): Promise<Response> =>
    toResponse(await exchange(viewOfRequest(request)));
  return Object.assign(handler, { exchange, close: () => sessions.closeAll() });
}

interface Context {
  config: HttpConfig;
  server: ChannelServer;
  sessions: SessionRegistry;
  toolSchema: ToolSchemaLookup;
  policy: SecurityPolicy;
}

async function route(request: HttpRequestView, context: Context): Promise<HttpReply> {
  const { config } = context;
  if (request.pathname !== config.path) return refuse(404, 'Not Found');
  const { policy } = context;
  if (!isHostAllowed(request.host, policy)) return refuse(403, 'Forbidden: Host not allowed');
  const origin = request.headers.get('origin');
  if (!isOriginAllowed(origin, policy)) return refuse(403, 'Forbidden: Origin not allowed');
  if (request.method === 'OPTIONS') return preflightResponse(request.headers, origin);
  const repeated = findRepeatedHeader(request.headers);
  if (repeated !== undefined) return refuse(400, `Bad Request: the ${repeated} header must appear once`);
  const principal = await authenticate(request, config);
  // Every Principal has its binding key; a reply has none.
  if (principal !== undefined && !('principal' in principal)) return principal;
  const legacy: LegacyContext = {
    server: context.server,
    sessions: context.sessions,
    principal,
    isSessionless: !config.sessions,
  };
  const version = request.headers.get('mcp-protocol-version');
  const isModernHeader = version !== null && isModernVersion(version);
  switch (request.method) {
    case 'POST':
      // `return await`: one microtask hop instead of three for a promise returned from an async function.
      return await handlePost(request, context, legacy);
    // S26-HTTP-1: no GET stream in the stateless era; without sessions, none in either (HTTP-19).
    case 'GET':
      return isModernHeader || !config.sessions ? notAllowed('POST') : handleLegacyGet(request, legacy);
    case 'DELETE':
      return isModernHeader || !config.sessions ? notAllowed('POST') : handleLegacyDelete(request, legacy);
    default:
      return notAllowed('GET, POST, DELETE, OPTIONS');
  }
}

async function handlePost(
  request: HttpRequestView,
  context: Context,
  legacy: LegacyContext,
): Promise<HttpReply> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return refuse(415, 'Unsupported Media Type: the body must be application/json');
  }
  const accepts = parseAccept(request.headers.get('accept'));
  if (!accepts.json && !accepts.sse) {
    return refuse(406, 'Not Acceptable: accept application/json and text/event-stream');
  }
  const body = await request.readBody(context.config.maxBodyBytes);
  if ('tooLarge' in body) {
    return refuse(413, `Payload Too Large: the limit is ${context.config.maxBodyBytes} bytes`);
  }
  const frame = decodeFrame(body.text);
  const routed = classifyPost(frame, {
    protocolVersion: request.headers.get('mcp-protocol-version'),
    method: request.headers.get('mcp-method'),
  });
  const denied = await authorize(routed, legacy.principal, context.config);
  if (denied) return denied;
  switch (routed.kind) {
    case 'reject':
      return errorReply(routed.error);
    case 'modern-notification':
      return emptyReply(202);
    case 'modern-request': {
      const checked = checkModernRequest(routed.message, request.headers, context.toolSchema);
      const refused = checked instanceof Promise ? await checked : checked;
      if (refused) return errorReply(refused);
      const { principal } = legacy;
      const server =
        principal === undefined
          ? context.server
          : serverWithSender(context.server, { requestId: routed.message.id, principal });
      return await serveModernRequest(server, routed.message, request, {
        keepAliveMs: context.config.keepAliveMs,
      });
    }
    case 'legacy':
      return await handleLegacyPost(request, routed.frame, routed.isInitialize, accepts, legacy);
  }
}

/**
 * The request's principal (undefined without authentication), or the reply refusing it: the `auth`
 * layer's own response, or a bare 401 when the `authenticate` hook finds no principal.
 */
async function authenticate(
  request: HttpRequestView,
  config: HttpConfig,
): Promise<Principal | HttpReply | undefined> {
  if (config.auth) {
    const outcome = await config.auth.authenticate(request.toRequest());
    return outcome instanceof Response ? await replyOf(outcome) : outcome;
  }
  if (!config.authenticate) return undefined;
  const principal = await config.authenticate(request.toRequest());
  if (principal !== undefined) return principal;
  return errorReply({
    status: 401,
    code: TRANSPORT_ERROR,
    message: 'Unauthorized',
    headers: { 'WWW-Authenticate': 'Bearer' },
  });
}

/** The `auth` layer's refusal of a POST's requests (e.g. 403 insufficient_scope), if any. */
async function authorize(
  routed: ReturnType<typeof classifyPost>,
  principal: Principal | undefined,
  config: HttpConfig,
): Promise<HttpReply | undefined> {
  const auth = config.auth;
  if (auth?.authorize === undefined || principal === undefined) return undefined;
  const requests =
    routed.kind === 'modern-request'
      ? [routed.message]
      : routed.kind === 'legacy'
        ? requestsOf(routed.frame)
        : [];
  if (requests.length === 0) return undefined;
  const refusal = await auth.authorize(
    principal,
    requests.map(({ method, params }) => ({ method, params })),
  );
  return refusal === undefined ? undefined : await replyOf(refusal);
}

function requestsOf(frame: Frame): JsonRpcRequest[] {
  const items = frame.type === 'batch' ? frame.items : [frame];
  return items.flatMap((item) => (item.type === 'message' && isRequest(item.message) ? [item.message] : []));
}

/** A web Response as a reply (refusals only: small bodies, read whole). */
async function replyOf(response: Response): Promise<HttpReply> {
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: await response.text(),
  };
}

/** Which bodies the Accept header allows (absent means anything). */
function parseAccept(accept: string | null): Accepts {
  if (accept === null || accept.trim() === '') return { json: true, sse: true };
  const isAny = /\*\/\*/.test(accept);
  return {
    json: isAny || /application\/(json|\*)/i.test(accept),
    sse: isAny || /text\/(event-stream|\*)/i.test(accept),
  };
}

function refuse(status: number, message: string): HttpReply {
  return errorReply({ status, code: TRANSPORT_ERROR, message });
}

function notAllowed(allow: string): HttpReply {
  return errorReply({
    status: 405,
    code: TRANSPORT_ERROR,
    message: 'Method Not Allowed',
    headers: { Allow: allow },
  });
}
