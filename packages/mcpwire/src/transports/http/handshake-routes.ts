// Handshake-era traffic on the endpoint (2025-03-26 .. 2025-11-25): `initialize` opens a session;
// every other POST, GET and DELETE must name a live session of the same principal (HTTP-25..35).

import type { Frame } from '../../jsonrpc/codec.ts';
import type { RequestId } from '../../jsonrpc/message.ts';
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

/** Serves a handshake-era POST: a new session for `initialize`, else delivery into the named session. */
export async function handleHandshakePost(
  request: HttpRequestView,
  frame: Frame,
  isInitialize: boolean,
  accepts: Accepts,
  context: HandshakeContext,
): Promise<HttpReply> {
  const requests = requestsOf(frame);
  const firstId = requests[0]?.id;
  const refused = checkVersionHeader(request, firstId);
  if (refused) return refused;
  let session: HttpSession | undefined;
  if (isInitialize) {
    const created = await context.sessions.create(context.server, {
      principal: context.principal?.principal,
      clientKey: clientKeyOf(request, context.principal, context.clientKey),
    });
    if (!(created instanceof HttpSession)) {
      // Every session under the cap has a request in flight; the sweep runs this often.
      const retryAfter = String(context.sessions.retryAfterSeconds);
      const whose = created.cap === 'maxSessions' ? '' : ' for this client';
      return errorReply({
        status: 503,
        code: TRANSPORT_ERROR,
        message: `Too many sessions${whose} (the limit is ${created.limit}), each with a request in progress; retry after ${retryAfter} s`,
        id: firstId,
        headers: { 'Retry-After': retryAfter },
      });
    }
    session = created;
  } else {
    const finding = findSession(request, context, firstId);
    const found = finding instanceof Promise ? await finding : finding;
    if (!(found instanceof HttpSession)) return found;
    session = found;
    const batchRefused = refuseBatch(frame, session.protocolVersion);
    if (batchRefused) return batchRefused;
    const reused = requests.find((item) => session?.isInFlight(item.id));
    if (reused) {
      return errorReply({
        status: 400,
        code: ErrorCode.InvalidRequest,
        message: `Invalid Request: id ${JSON.stringify(reused.id)} is already in use by a request in progress`,
        id: reused.id,
      });
    }
  }
  context.sessions.touch(session);
  const headers = isInitialize ? { 'Mcp-Session-Id': session.id } : {};
  const answer = session.post(frame, requests, accepts, {
    headers,
    principal: context.principal,
  });
  // HTTP-7: notifications and responses only: accepted, no body (once what they changed is stored).
  const writing = answer ? undefined : session.writing;
  if (writing) await writing;
  const response = answer ? await answer : emptyReply(202);
  context.sessions.touch(session);
  return response;
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
  const refused = checkVersionHeader(request, undefined);
  if (refused) return refused;
  const session = await findSession(request, context, undefined);
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
  const refused = checkVersionHeader(request, undefined);
  if (refused) return refused;
  const session = await findSession(request, context, undefined);
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
): HttpSession | HttpReply | Promise<HttpSession | HttpReply> {
  const sessionId = request.headers.get('mcp-session-id');
  if (sessionId === null) return refusal(400, 'Bad Request: Mcp-Session-Id header is required', id);
  const found = context.sessions.find(context.server, sessionId, context.principal?.principal);
  return found instanceof Promise
    ? found.then((session) => checkSession(request, session, id))
    : checkSession(request, found, id);
}

function checkSession(
  request: HttpRequestView,
  session: HttpSession | undefined,
  id: RequestId | undefined,
): HttpSession | HttpReply {
  if (!session) return refusal(404, 'Session not found', id);
  const version = request.headers.get('mcp-protocol-version');
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
