// The Streamable HTTP endpoint as a web-standard function, `(Request) => Promise<Response>`: both eras
// on one path, body first (S26 section 3.5), with the handshake era's routes plugged in (with sessions,
// handler.ts; without, sessionless-handler.ts). Runtime-neutral; adapters are thin. The routes work on
// an exchange (exchange.ts), so the Node adapter skips the web objects altogether.

import { decodeFrameKeepingText, type Frame } from '../../jsonrpc/codec.ts';
import { isRequest, type JsonRpcRequest } from '../../jsonrpc/message.ts';
import { isStatelessVersion } from '../../protocol/revisions.ts';
import { initializeRefusal } from '../../protocol/envelope.ts';
import { classifyPost } from './classify.ts';
import { emptyReply, type HttpReply, type HttpRequestView, toResponse, viewOfRequest } from './exchange.ts';
import { errorReply, TRANSPORT_ERROR } from './json-response.ts';
import { checkStatelessRequest, type ToolSchemaLookup } from './stateless-route.ts';
import { findRepeatedHeader } from './repeated-headers.ts';
import { StoreUnavailableError } from './store-unavailable.ts';
import { serveStatelessRequest } from './stateless-exchange.ts';
import type { RequestServer } from '../channel.ts';
import type { ChannelServer, HttpConfig, Principal } from './options.ts';
import type { Accepts } from './post-exchange.ts';
import {
  corsHeaders,
  isHostAllowed,
  isOriginAllowed,
  preflightResponse,
  type SecurityPolicy,
} from './security.ts';

/**
 * The handler: a fetch-style function, plus `close` to end every session and stream it holds, and
 * `exchange`, the same handler on a request view (what `mcpwire/node` calls, no web objects made).
 */
export interface HttpHandler {
  (request: Request): Promise<Response>;
  /** The runtime-neutral core; always answers (never undefined), synchronously when nothing waits. */
  readonly exchange: (view: HttpRequestView) => HttpReply | Promise<HttpReply>;
  /** Closes every handshake-era session (their server sessions close too). Idempotent. */
  close(): Promise<void>;
  /**
   * Settles once the handler's message-bus subscriptions are in place. Requests that arrive sooner
   * wait for it, so a node never answers before it hears the other nodes; with the in-memory bus it
   * is settled at once.
   */
  readonly ready: Promise<void>;
}

/** The handshake era's routes: with sessions (handshake-routes.ts) or without (sessionless-post.ts). */
export interface HandshakeRoutes {
  post(
    request: HttpRequestView,
    frame: Frame,
    isInitialize: boolean,
    accepts: Accepts,
    principal: Principal | undefined,
  ): HttpReply | Promise<HttpReply>;
  get(request: HttpRequestView, principal: Principal | undefined): Promise<HttpReply>;
  delete(request: HttpRequestView, principal: Principal | undefined): Promise<HttpReply>;
  close(): Promise<void>;
}

/**
 * The endpoint for `server`. Checks, in order: path (404), Host (403), Origin (403), CORS preflight,
 * `authenticate` (401); then POST bodies are classified and served by era, and GET or DELETE go to
 * the handshake era's routes (405 when they name a stateless-era version). Never throws: an
 * unexpected failure is reported to `onError` and answered 500 (503 with Retry-After for a
 * StoreUnavailableError: a store's backend is down). While `ready` is pending (the handler's bus
 * subscriptions), requests wait for it.
 */
export function createEndpoint(
  server: ChannelServer | RequestServer,
  config: HttpConfig,
  toolSchema: ToolSchemaLookup,
  handshake: HandshakeRoutes,
  ready?: Promise<void>,
): HttpHandler {
  const policy = { allowedHosts: config.allowedHosts, allowedOrigins: config.allowedOrigins };
  const context: Context = { config, server, handshake, toolSchema, policy };
  let waiting = ready;
  void waiting?.then(() => (waiting = undefined));
  // A refusal is decided without a turn of the event loop; only a served request waits.
  const serve = (view: HttpRequestView): HttpReply | Promise<HttpReply> => {
    const origin = view.headers.get('origin');
    let routed: HttpReply | Promise<HttpReply>;
    try {
      const refused = checkRequest(view, context, origin);
      if (refused !== undefined) return withCors(refused, origin);
      // A POST without authentication, the usual request: its reply comes complete (CORS headers,
      // failures answered), so no promise more per request to add them.
      if (view.method === 'POST' && config.auth === undefined && config.authenticate === undefined)
        return handlePost(view, context, undefined, origin);
      routed = route(view, context);
    } catch (error) {
      return withCors(failed(view, error, config), origin);
    }
    if (!(routed instanceof Promise)) return withCors(routed, origin);
    return routed.then(
      (reply) => withCors(reply, origin),
      (error: unknown) => withCors(failed(view, error, config), origin),
    );
  };
  const exchange = (view: HttpRequestView): HttpReply | Promise<HttpReply> =>
    waiting === undefined ? serve(view) : waiting.then(() => serve(view));
  const handler = async (request: Request): Promise<Response> =>
    toResponse(await exchange(viewOfRequest(request)));
  return Object.assign(handler, {
    exchange,
    close: () => handshake.close(),
    ready: ready ?? Promise.resolve(),
  });
}

/** Reports an unexpected failure; its reply: 503 with Retry-After for a store that is down, else 500. */
function failed(view: HttpRequestView, error: unknown, config: HttpConfig): HttpReply {
  config.onError(new Error(`Handling ${view.method} ${view.pathname} failed`, { cause: error }));
  return error instanceof StoreUnavailableError
    ? errorReply({
        status: 503,
        code: TRANSPORT_ERROR,
        message: error.message,
        headers: { 'Retry-After': String(error.retryAfterSeconds) },
      })
    : errorReply({ status: 500, code: TRANSPORT_ERROR, message: 'Internal server error' });
}

/** The reply with CORS headers for an allowed cross-origin request (a 403 is no answer to read). */
function withCors(reply: HttpReply, origin: string | null): HttpReply {
  if (reply.status !== 403 && origin !== null) Object.assign(reply.headers, corsHeaders(origin));
  return reply;
}

interface Context {
  config: HttpConfig;
  server: ChannelServer | RequestServer;
  handshake: HandshakeRoutes;
  toolSchema: ToolSchemaLookup;
  policy: SecurityPolicy;
}

/** The checks before authentication, in order: path, Host, Origin, CORS preflight, repeated headers. */
function checkRequest(
  request: HttpRequestView,
  context: Context,
  origin: string | null,
): HttpReply | undefined {
  const { config } = context;
  if (request.pathname !== config.path) return refuse(404, 'Not Found');
  const { policy } = context;
  if (!isHostAllowed(request.host, policy)) return refuse(403, 'Forbidden: Host not allowed');
  if (!isOriginAllowed(origin, policy)) return refuse(403, 'Forbidden: Origin not allowed');
  if (request.method === 'OPTIONS') return preflightResponse(request.headers, origin);
  const repeated = findRepeatedHeader(request.headers);
  if (repeated !== undefined) return refuse(400, `Bad Request: the ${repeated} header must appear once`);
  return undefined;
}

/** A request that passed `checkRequest`: authenticated (when configured), then served by method. */
function route(request: HttpRequestView, context: Context): HttpReply | Promise<HttpReply> {
  const { config } = context;
  // Without authentication there is nothing to wait for: no promise and no turn per request.
  if (config.auth === undefined && config.authenticate === undefined)
    return serveMethod(request, context, undefined);
  return authenticate(request, config).then((principal) =>
    // Every Principal has its binding key; a reply has none.
    principal !== undefined && !('principal' in principal)
      ? principal
      : serveMethod(request, context, principal),
  );
}

function serveMethod(
  request: HttpRequestView,
  context: Context,
  principal: Principal | undefined,
): HttpReply | Promise<HttpReply> {
  if (request.method === 'POST') return handlePost(request, context, principal);
  const version = request.headers.get('mcp-protocol-version');
  const isStatelessHeader = version !== null && isStatelessVersion(version);
  switch (request.method) {
    case 'GET':
      // S26-HTTP-1: no GET stream in the stateless era.
      return isStatelessHeader ? notAllowed('POST') : context.handshake.get(request, principal);
    case 'DELETE':
      return isStatelessHeader ? notAllowed('POST') : context.handshake.delete(request, principal);
    default:
      return notAllowed('GET, POST, DELETE, OPTIONS');
  }
}

/**
 * A POST into the era it names. With `cors` (the request's Origin, or null without one: a POST without
 * authentication, served straight from `serve`), the reply comes complete: CORS headers added for that
 * origin and an unexpected failure answered, in this one async function (no promise more per request
 * to finish it).
 */
async function handlePost(
  request: HttpRequestView,
  context: Context,
  principal: Principal | undefined,
  cors?: string | null,
): Promise<HttpReply> {
  try {
    const type = request.headers.get('content-type') ?? '';
    if (type !== 'application/json' && !/^application\/json\s*(;|$)/i.test(type)) {
      return done(refuse(415, 'Unsupported Media Type: the body must be application/json'), cors);
    }
    const accepts = parseAccept(request.headers.get('accept'));
    if (!accepts.json && !accepts.sse) {
      return done(refuse(406, 'Not Acceptable: accept application/json and text/event-stream'), cors);
    }
    const body = await request.readBody(context.config.maxBodyBytes);
    if ('tooLarge' in body) {
      return done(refuse(413, `Payload Too Large: the limit is ${context.config.maxBodyBytes} bytes`), cors);
    }
    // The text stays with the frame: a bridge relays the client's bytes (issue 25, byte-exact).
    const frame = decodeFrameKeepingText(body.text);
    const routed = classifyPost(frame, {
      protocolVersion: request.headers.get('mcp-protocol-version'),
      method: request.headers.get('mcp-method'),
    });
    if (context.config.auth?.authorize !== undefined && principal !== undefined) {
      const denied = await authorize(routed, principal, context.config);
      if (denied) return done(denied, cors);
    }
    const eras = context.server.eras ?? 'both';
    // A handshake-only server answers a 2026-07-28 POST as a 2025 server would: as handshake-era
    // traffic, which without a session is refused with a 4xx that is no 2026-07-28 error.
    if (
      eras === 'handshake' &&
      (routed.kind === 'stateless-request' || routed.kind === 'stateless-notification')
    ) {
      const posted = context.handshake.post(request, frame, false, accepts, principal);
      return done(posted instanceof Promise ? await posted : posted, cors);
    }
    if (eras === 'stateless' && routed.kind === 'handshake' && routed.isInitialize) {
      const { message } = routed.frame as { message: JsonRpcRequest };
      const { code, message: text, data } = initializeRefusal(message.params?.protocolVersion);
      return done(errorReply({ status: 400, code, message: text, data, id: message.id }), cors);
    }
    switch (routed.kind) {
      case 'reject':
        return done(errorReply(routed.error), cors);
      case 'stateless-notification':
        return done(emptyReply(202), cors);
      case 'stateless-request': {
        const checked = checkStatelessRequest(routed.message, request.headers, context.toolSchema);
        const refused = checked instanceof Promise ? await checked : checked;
        if (refused) return done(errorReply(refused), cors);
        return done(
          await serveStatelessRequest(context.server, routed.message, request, {
            keepAliveMs: context.config.keepAliveMs,
            principal,
          }),
          cors,
        );
      }
      case 'handshake': {
        // A refusal comes back as a plain reply: no await for it.
        const posted = context.handshake.post(request, routed.frame, routed.isInitialize, accepts, principal);
        return done(posted instanceof Promise ? await posted : posted, cors);
      }
    }
  } catch (error) {
    if (cors === undefined) throw error;
    return withCors(failed(request, error, context.config), cors);
  }
}

/** `reply`, completed with CORS headers when `cors` asks (see handlePost; undefined: it does not). */
function done(reply: HttpReply, cors: string | null | undefined): HttpReply {
  return cors === undefined ? reply : withCors(reply, cors);
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
    routed.kind === 'stateless-request'
      ? [routed.message]
      : routed.kind === 'handshake'
        ? requestsOf(routed.frame)
        : [];
  if (requests.length === 0) return undefined;
  const refusal = await auth.authorize(
    principal,
    requests.map(({ method, params }) => ({ method, params })),
  );
  return refusal === undefined ? undefined : await replyOf(refusal);
}

/**
 * The requests of a POST body (a batch's too), without its notifications and responses. Every
 * handshake-era POST asks, so the usual body, one message, makes no array but the answer.
 */
export function requestsOf(frame: Frame): JsonRpcRequest[] {
  if (frame.type === 'message') return isRequest(frame.message) ? [frame.message] : [];
  const requests: JsonRpcRequest[] = [];
  if (frame.type !== 'batch') return requests;
  for (const item of frame.items)
    if (item.type === 'message' && isRequest(item.message)) requests.push(item.message);
  return requests;
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
  // A client sends the same Accept on every POST: three regular expressions once, not per request.
  if (accept === lastAccept.header) return lastAccept.accepts;
  const isAny = /\*\/\*/.test(accept);
  const accepts = {
    json: isAny || /application\/(json|\*)/i.test(accept),
    sse: isAny || /text\/(event-stream|\*)/i.test(accept),
  };
  lastAccept = { header: accept, accepts };
  return accepts;
}

/** The last Accept header parsed; its Accepts is shared, so nothing may change it. */
let lastAccept: { header: string; accepts: Accepts } = {
  header: '',
  accepts: { json: true, sse: true },
};

function refuse(status: number, message: string): HttpReply {
  return errorReply({ status, code: TRANSPORT_ERROR, message });
}

/** 405, naming the methods allowed. */
export function notAllowed(allow: string): HttpReply {
  return errorReply({
    status: 405,
    code: TRANSPORT_ERROR,
    message: 'Method Not Allowed',
    headers: { Allow: allow },
  });
}
