// Validating the authorization response (the redirect back) before its code goes anywhere: `state`
// (AUTH-32), then `iss` by RFC 9207 and S26-AUTH-2's table, then `error`.

import { OAuthError } from './errors.ts';

/** What the flow recorded before redirecting (S26-AUTH-1). */
export interface PendingAuthorization {
  state: string;
  /** The `issuer` of the validated metadata. */
  issuer: string;
  /** The metadata's `authorization_response_iss_parameter_supported`. */
  isIssSupported: boolean;
}

/**
 * The authorization code of `redirect`, or OAuthError (step `authorization-response`). `iss` is
 * compared as a string, with no normalization; when it is required and absent, or present and
 * different, the response is refused without acting on its `error` (S26-AUTH-2).
 */
export function parseAuthorizationResponse(redirect: URL, pending: PendingAuthorization): string {
  const step = 'authorization-response';
  const params = redirect.searchParams;
  if (params.get('state') !== pending.state)
    throw new OAuthError(
      step,
      `the authorization response's state does not match the request's; discarding it`,
    );
  const iss = params.get('iss');
  if (iss === null && pending.isIssSupported)
    throw new OAuthError(
      step,
      `the authorization response has no iss, but ${pending.issuer} advertises authorization_response_iss_parameter_supported (RFC 9207 §2.4)`,
    );
  if (iss !== null && iss !== pending.issuer)
    throw new OAuthError(
      step,
      `the authorization response's iss "${iss}" is not the issuer "${pending.issuer}" (RFC 9207 §2.4)`,
    );
  const error = params.get('error');
  if (error !== null) {
    const description = params.get('error_description');
    throw new OAuthError(
      'authorization',
      `the authorization server refused: ${error}${description ? `: ${description}` : ''}`,
      {
        oauthError: error,
      },
    );
  }
  const code = params.get('code');
  if (code === null || code === '') throw new OAuthError(step, `the authorization response has no code`);
  return code;
}
