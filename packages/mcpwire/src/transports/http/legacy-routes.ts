// Handshake-era traffic on the endpoint (2025-03-26 .. 2025-11-25): `initialize` opens a session;
// every other POST, GET and DELETE must name a live session of the same principal (HTTP-25..35).
// Without sessions (`sessions: false`) each POST is served on a session of its own.

import type { Frame } from '../../jsonrpc/codec.ts';
import type { JsonRpcRequest, Message, RequestId } from '../../jsonrpc/message.ts';
import { isRequest } from '../../jsonrpc/message.ts';
import { ErrorCode } from '../../jsonrpc/rpc-error.ts';
import { LEGACY_VERSIONS } from '../../protocol/revisions.ts';
import { HttpSession } from './http-session.ts';
import { emptyReply, type HttpReply, type HttpRequestView } from './exchange.ts';
import { errorReply, TRANSPORT_ERROR } from './json-response.ts';
import type { ChannelServer, Principal } from './options.ts';
import type { Accepts } from './post-exchange.ts';
import type { SessionRegistry } from './sessions.ts';

/** What the handshake-era routes work with. */
export interface LegacyContext {
  server: ChannelServer;
  sessions: SessionRegistry;
  /** Who sent the request (undefined without authentication); sessions are bound to its key (SEC-7). */
  principal: Principal | undefined;
  /** `sessions: false`: no Mcp-Session-Id is issued; every POST gets a session that ends with it. */
  isSessionless: boolean;
}

/** Serves a handshake-era POST: a new session for `initialize`, else delivery into the named session. */
export async function handleLegacyPost(
  request: HttpRequestView,
  frame: Frame,
  isInitialize: boolean,
  accepts: Accepts,
  context: LegacyContext,
): Promise<HttpReply> {
  const items: readonly Message[] =
    frame.type === 'batch'
      ? frame.items.flatMap((item) => (item.type === 'message' ? [item.message] : []))
      : frame.type === 'message'
        ? [frame.message]
        : [];
  const requests = items.filter(isRequest);
  const firstId = requests[0]?.id;
  const refused = checkVersionHeader(request, firstId);
  if (refused) return refused;
  if (context.isSessionless) {
    return serveOnePost(request, frame, requests as JsonRpcRequest[], isInitialize, accepts, context);
  }
  let session: HttpSession | undefined;
  if (isInitialize) {
    session = context.sessions.create(context.server, context.principal?.principal);
    if (!session) return tooManySessions(context.sessions, firstId);
  } else {
    const found = findSession(request, context, firstId);
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
  const answer = session.post(frame, requests as JsonRpcRequest[], accepts, {
    headers,
    principal: context.principal,
  });
  // HTTP-7: notifications and responses only: accepted, no body.
  const response = answer ? await answer : emptyReply(202);
  context.sessions.touch(session);
  return response;
}

/**
 * A POST without a session: served on one of its own in the revision its MCP-Protocol-Version names
 * (2025-03-26 when absent, HTTP-34), with no Mcp-Session-Id issued. Nothing is left to resume, so a
 * client that goes away cancels its requests.
 */
async function serveOnePost(
  request: HttpRequestView,
  frame: Frame,
  requests: readonly JsonRpcRequest[],
  isInitialize: boolean,
  accepts: Accepts,
  context: LegacyContext,
): Promise<HttpReply> {
  const protocolVersion = isInitialize
    ? undefined
    : (request.headers.get('mcp-protocol-version') ?? '2025-03-26');
  const batchRefused = refuseBatch(frame, protocolVersion);
  if (batchRefused) return batchRefused;
  const { sessions, principal } = context;
  const session = sessions.create(context.server, principal?.principal, { protocolVersion });
  if (!session) return tooManySessions(sessions, requests[0]?.id);
  request.onGone(() => void session.close());
  const answer = session.post(frame, requests, accepts, { headers: {}, principal });
  if (answer) return await answer;
  await session.close();
  return emptyReply(202);
}

/** 503 at the session cap. */
function tooManySessions(sessions: SessionRegistry, id: RequestId | undefined): HttpReply {
  // The sweep that frees idle sessions runs this often: the earliest a retry can succeed.
  const retryAfter = String(sessions.retryAfterSeconds);
  return errorReply({
    status: 503,
    code: TRANSPORT_ERROR,
    message: `Too many sessions (the limit is ${sessions.maxSessions}); retry after ${retryAfter} s`,
    id,
    headers: { 'Retry-After': retryAfter },
  });
}

/** A batch outside 2025-03-26 gets 400. */
function refuseBatch(frame: Frame, version: string | undefined): HttpReply | undefined {
  if (frame.type !== 'batch' || version === '2025-03-26') return undefined;
  return errorReply({
    status: 400,
    code: ErrorCode.InvalidRequest,
    message: `Invalid Request: JSON-RPC batches exist only in protocol revision 2025-03-26, not ${version ?? 'before initialize'}`,
  });
}

/** GET: the session's standalone stream, or the resumption of one of its streams (Last-Event-ID). */
export async function handleLegacyGet(request: HttpRequestView, context: LegacyContext): Promise<HttpReply> {
  const accept = request.headers.get('accept') ?? '';
  if (!/text\/event-stream|text\/\*|\*\/\*/i.test(accept)) {
    return refusal(406, 'Not Acceptable: a GET must accept text/event-stream');
  }
  const refused = checkVersionHeader(request, undefined);
  if (refused) return refused;
  const session = findSession(request, context, undefined);
  if (!(session instanceof HttpSession)) return session;
  context.sessions.touch(session);
  const lastEventId = request.headers.get('last-event-id');
  const resumed = lastEventId === null ? undefined : await session.resume(lastEventId);
  if (resumed) return resumed;
  return session.openStandalone() ?? refusal(409, 'Conflict: this session already has a GET stream open');
}

/** DELETE: ends the session (HTTP-32); later requests with its id get 404. */
export async function handleLegacyDelete(
  request: HttpRequestView,
  context: LegacyContext,
): Promise<HttpReply> {
  const refused = checkVersionHeader(request, undefined);
  if (refused) return refused;
  const session = findSession(request, context, undefined);
  if (!(session instanceof HttpSession)) return session;
  await session.close();
  return emptyReply(204);
}

/** HTTP-35: an MCP-Protocol-Version that names no handshake-era revision gets 400 (absent is fine, HTTP-34). */
function checkVersionHeader(request: HttpRequestView, id: RequestId | undefined): HttpReply | undefined {
  const version = request.headers.get('mcp-protocol-version');
  if (version === null || (LEGACY_VERSIONS as readonly string[]).includes(version)) return undefined;
  return refusal(
    400,
    `Bad Request: unsupported MCP-Protocol-Version "${version}" (supported: ${LEGACY_VERSIONS.join(', ')})`,
    id,
  );
}

/** The request's session: 400 without an id (HTTP-29), 404 unknown or ended (HTTP-30), 400 on a version clash. */
function findSession(
  request: HttpRequestView,
  context: LegacyContext,
  id: RequestId | undefined,
): HttpSession | HttpReply {
  const sessionId = request.headers.get('mcp-session-id');
  if (sessionId === null) return refusal(400, 'Bad Request: Mcp-Session-Id header is required', id);
  const session = context.sessions.get(sessionId, context.principal?.principal);
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
