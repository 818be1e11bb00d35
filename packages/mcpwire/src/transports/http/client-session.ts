// What a handshake-era HTTP client remembers between requests: the session id the server assigned
// on initialize (HTTP-25/28) and the negotiated protocol version it must name (HTTP-33).

import type { AnswerHeaders, HeaderRecord } from './requester.ts';
import { McpHeader } from './mcp-headers.ts';

/** Visible ASCII only (HTTP-26); anything else is not a session id we will echo. */
const SESSION_ID = /^[\x21-\x7e]+$/;

/**
 * The handshake-era session of one channel. Starts empty; `learn` records the id from the
 * initialize response, `protocolVersion` is set from the initialize result; `reset` forgets both
 * (a new initialize, or the server ended the session).
 */
export class HttpClientSession {
  #id: string | undefined;
  /** The negotiated revision, sent as MCP-Protocol-Version on every later request. */
  protocolVersion: string | undefined;

  /** The session id, once the server assigned one. */
  get id(): string | undefined {
    return this.#id;
  }

  /** Forgets the session: the next initialize starts a new one, without a session id (HTTP-31). */
  reset(): void {
    this.#id = undefined;
    this.protocolVersion = undefined;
  }

  /** Records the `Mcp-Session-Id` of an initialize response, if it carries a valid one. */
  learn(response: { headers: AnswerHeaders }): void {
    const id = response.headers.get(McpHeader.sessionId);
    if (id !== null && SESSION_ID.test(id)) this.#id = id;
  }

  /**
   * The headers of a handshake-era request, a new record each call (lowercase names, as
   * {@link SESSION_ID_HEADER}): the session id and the negotiated version, once known.
   */
  headers(): HeaderRecord {
    const headers: HeaderRecord = {};
    if (this.#id !== undefined) headers[SESSION_ID_HEADER] = this.#id;
    if (this.protocolVersion !== undefined) headers[PROTOCOL_VERSION_HEADER] = this.protocolVersion;
    return headers;
  }
}

/** `Mcp-Session-Id` as a HeaderRecord names it. */
export const SESSION_ID_HEADER = McpHeader.sessionId.toLowerCase();

/** `MCP-Protocol-Version` as a HeaderRecord names it. */
const PROTOCOL_VERSION_HEADER = McpHeader.protocolVersion.toLowerCase();
