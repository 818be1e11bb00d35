// OAuth error responses exactly as RFC 6749 §5.2 (token endpoint), §4.1.2.1 (authorization
// redirect), RFC 7591 §3.2.2 (registration) and RFC 8707 §2 (`invalid_target`) define them.

/** The `error` codes this server returns, from RFC 6749, RFC 7591 and RFC 8707. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'server_error'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type';

/**
 * A refusal to report to the client as an OAuth error: `error` and `error_description`, with the HTTP
 * status RFC 6749 §5.2 gives (400, or 401 for a client that failed to authenticate).
 */
export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: number;

  constructor(error: OAuthErrorCode, description: string, status = 400) {
    super(description);
    this.name = 'OAuthError';
    this.error = error;
    this.status = status;
  }
}

/** Headers every response carrying a token or a credential has (RFC 6749 §5.1). */
export const NO_STORE: Readonly<Record<string, string>> = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** A JSON response with the no-store headers. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...NO_STORE, ...headers },
  });
}

/**
 * The JSON error response of `error` (RFC 6749 §5.2). An `invalid_client` after HTTP Basic
 * authentication is a 401 with `WWW-Authenticate: Basic`, as the RFC requires.
 */
export function toErrorResponse(error: OAuthError, usedBasic = false): Response {
  const status = error.error === 'invalid_client' && usedBasic ? 401 : error.status;
  const headers: Record<string, string> = status === 401 ? { 'www-authenticate': 'Basic realm="token"' } : {};
  return jsonResponse({ error: error.error, error_description: error.message }, status, headers);
}
