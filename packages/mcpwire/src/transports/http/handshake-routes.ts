// Handshake-era traffic on the endpoint (2025-03-26 .. 2025-11-25): `initialize` opens a session;
// every other POST, GET and DELETE must name a live session of the same principal (HTTP-25..35).

import type { Frame } from '../../jsonrpc/codec.ts';
import type { JsonRpcRequest, RequestId } from '../../jsonrpc/message.ts';
import { ErrorCode } from '../../jsonrpc/rpc-error.ts';
import { clientKeyOf, type ClientKeyHook } from './per-client-key.ts';
import { HttpSession } from './http-session.ts';
import { checkVersionHeader, refuseBatch } from './handshake-checks.ts';
import { emptyReply, type HttpReply, type HttpRequestView } from './exchange.ts';
import { requestsOf } from './endpoint.ts';
import { errorReply, TRANSPORT_ERROR } from './json-response.ts';
import type { ChannelServer, Principal } from './options.ts';
import type { Accepts } from './post-exchange.ts';
import type { SessionRegistry } from './sessions.ts';

/** What the handshake-era routes work with. */
export interface HandshakeContext {
  server: ChannelServer;
  sessions: SessionRegistry;
  /** Who sent the request (undefined without authentication); sessions are bound to its key (SEC-7). */
  principal: Principal | undefined;
  /** The `clientKey` option: the client a request comes from when there is no principal. */
  clientKey?: ClientKeyHook | undefined;
}

/**
 * Serves a handshake-era POST: a new session for `initialize`, else delivery into the named session.
 * Answers at once where nothing waits (a refusal); an answer to requests comes when they are answered.
 */
export function handleHandshakePost(
  request: HttpRequestView,
  frame: Frame,
  isInitialize: boolean,
  accepts: Accepts,
  context: HandshakeContext,
): HttpReply | Promise<HttpReply> {
  const requests = requestsOf(frame);
  const firstId = requests[0]?.id;
  // One read of the version header for both checks (every POST of a session sends it).
  const version = request.headers.get('mcp-protocol-version');
  const refused = checkVersionHeader(version, firstId);
  if (refused) return refused;
  if (isInitialize) return initializeSession(request, { frame, requests, accepts }, context);
  const post = { frame, requests, accepts };
  const finding = findSession(request, context, firstId, version);
  return finding instanceof Promise
    ? finding.then((found) => postInto(found, post, context))
    : postInto(finding, post, context);
}

/** One POST's parts, as the endpoint read them. */
interface Post {
  frame: Frame;
  requests: readonly JsonRpcRequest[];
  accepts: Accepts;
}

async function initializeSession(
  request: HttpRequestView,
  post: Post,
  context: HandshakeContext,
): Promise<HttpReply> {
  const created = await context.sessions.create(context.server, {
    principal: context.principal?.principal,
    clientKey: clientKeyOf(request, context.principal, context.clientKey),
  });
  if (created instanceof HttpSession)
    return deliver(created, post, { 'Mcp-Session-Id': created.id }, context);
  // Every session under the cap has a request in flight; the sweep runs this often.
  const retryAfter = String(context.sessions.retryAfterSeconds);
  const whose = created.cap === 'maxSessions' ? '' : ' for this client';
  return errorReply({
    status: 503,
    code: TRANSPORT_ERROR,
    message: `Too many sessions${whose} (the limit is ${created.limit}), each with a request in progress; retry after ${retryAfter} s`,
    id: post.requests[0]?.id,
    headers: { 'Retry-After': retryAfter },
  });
}

/** A POST into the session found (or the refusal found instead). */
function postInto(
  found: HttpSession | HttpReply,
  post: Post,
  context: HandshakeContext,
): HttpReply | Promise<HttpReply> {
  if (!(found instanceof HttpSession)) return found;
  const batchRefused = refuseBatch(post.frame, found.protocolVersion);
  if (batchRefused) return batchRefused;
  const reused = found.hasRequestsInFlight
    ? post.requests.find((item) => found.isInFlight(item.id))
    : undefined;
  if (reused) {
    return errorReply({
      status: 400,
      code: ErrorCode.InvalidRequest,
      message: `Invalid Request: id ${JSON.stringify(reused.id)} is already in use by a request in progress`,
      id: reused.id,
    });
  }
  return deliver(found, post, {}, context);
}

/**
 * Hands the POST to its session: the answer to its requests (the session touches itself when they
 * are answered), or, with none, 202 once what its notifications changed is stored (HTTP-7).
 */
function deliver(
  session: HttpSession,
  post: Post,
  headers: Record<string, string>,
  context: HandshakeContext,
): HttpReply | Promise<HttpReply> {
  context.sessions.touch(session);
  const answer = session.post(post.frame, post.requests, post.accepts, {
    headers,
    principal: context.principal,
  });
  if (answer) return answer;
  const accepted = (): HttpReply => {
    context.sessions.touch(session);
    return emptyReply(202);
  };
  const writing = session.writing;
  return writing ? writing.then(accepted) : accepted();
}

/** GET: the session's standalone stream, or the resumption of one of its streams (Last-Event-ID). */
export async function handleHandshakeGet(
  request: HttpRequestView,
  context: HandshakeContext,
): Promise<HttpReply> {
  const accept = request.headers.get('accept') ?? '';
  if (!/text\/event-stream|text\/\*|\*\/\*/i.test(accept)) {
    return refusal(406, 'Not Acceptable: a GET must accept text/event-stream');
  }
  const version = request.headers.get('mcp-protocol-version');
  const refused = checkVersionHeader(version, undefined);
  if (refused) return refused;
  const session = await findSession(request, context, undefined, version);
  if (!(session instanceof HttpSession)) return session;
  context.sessions.touch(session);
  const lastEventId = request.headers.get('last-event-id');
  const resumed = lastEventId === null ? undefined : await session.resume(lastEventId);
  if (resumed) return resumed;
  return session.openStandalone() ?? refusal(409, 'Conflict: this session already has a GET stream open');
}

/** DELETE: ends the session (HTTP-32); later requests with its id get 404. */
export async function handleHandshakeDelete(
  request: HttpRequestView,
  context: HandshakeContext,
): Promise<HttpReply> {
  const version = request.headers.get('mcp-protocol-version');
  const refused = checkVersionHeader(version, undefined);
  if (refused) return refused;
  const session = await findSession(request, context, undefined, version);
  if (!(session instanceof HttpSession)) return session;
  await context.sessions.end(session);
  return emptyReply(204);
}

/**
 * The request's session: 400 without an id (HTTP-29), 404 unknown or ended (HTTP-30), 400 on a
 * version clash. Answers at once when the session store does.
 */
function findSession(
  request: HttpRequestView,
  context: HandshakeContext,
  id: RequestId | undefined,
  version: string | null,
): HttpSession | HttpReply | Promise<HttpSession | HttpReply> {
  const sessionId = request.headers.get('mcp-session-id');
  if (sessionId === null) return refusal(400, 'Bad Request: Mcp-Session-Id header is required', id);
  const found = context.sessions.find(context.server, sessionId, context.principal?.principal);
  return found instanceof Promise
    ? found.then((session) => checkSession(session, version, id))
    : checkSession(found, version, id);
}

/** The session, or 404 when there is none, or 400 when `version` (its header) is not the negotiated one. */
function checkSession(
  session: HttpSession | undefined,
  version: string | null,
  id: RequestId | undefined,
): HttpSession | HttpReply {
  if (!session) return refusal(404, 'Session not found', id);
  if (version !== null && session.protocolVersion !== undefined && version !== session.protocolVersion) {
    return refusal(
      400,
      `Bad Request: MCP-Protocol-Version "${version}" differs from the negotiated ${session.protocolVersion}`,
      id,
    );
  }
  return session;
}

function refusal(status: number, message: string, id?: RequestId): HttpReply {
  return errorReply({ status, code: TRANSPORT_ERROR, message, id });
}
