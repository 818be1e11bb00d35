// Who made a request, as the HTTP layer's authentication established it: the one shape the transport
// (session binding), the server (`ctx.auth`) and the auth layer (bearer verification) all speak.

/**
 * A verified caller. `principal` is the identity sessions are bound to (SEC-7): a handshake-era
 * session created by one principal is not found by another. Bearer verification (`mcpwire/auth`)
 * fills every field from the token; an `authenticate` hook of one's own may set only `principal`.
 * Never holds the credential itself (SEC-5, AUTH-24: no token passthrough).
 */
export interface Principal {
  /** The binding key: equal keys are the same caller. Bearer auth makes it from issuer, subject and client. */
  readonly principal: string;
  /** The token's subject (`sub`): the user or workload the client acts for. */
  readonly subject?: string;
  /** The OAuth client the token was issued to (`client_id`, or `azp`). */
  readonly clientId?: string;
  /** The granted scopes (from `scope`, or `scp`). */
  readonly scopes?: readonly string[];
  /** When the token expires, in seconds since the epoch (its `exp`). */
  readonly expiresAt?: number;
  /** The token's verified claims (or the introspection response), for anything else a handler needs. */
  readonly claims?: Readonly<Record<string, unknown>>;
}
