// What a handshake-era HTTP client remembers between requests: the session id the server assigned
// on initialize (HTTP-25/28) and the negotiated protocol version it must name (HTTP-33).

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
  learn(response: Response): void {
    const id = response.headers.get(McpHeader.sessionId);
    if (id !== null && SESSION_ID.test(id)) this.#id = id;
  }

  /** The headers of a handshake-era request: the session id and the negotiated version, once known. */
  headers(): Headers {
    const headers = new Headers();
    if (this.#id !== undefined) headers.set(McpHeader.sessionId, this.#id);
    if (this.protocolVersion !== undefined) headers.set(McpHeader.protocolVersion, this.protocolVersion);
    return headers;
  }
}
