// Local failures of the OAuth client: never sent on the wire, each with a stable `code` naming the step.

/** The step of the authorization flow that failed. */
export type OAuthStep =
  | 'protected-resource-discovery'
  | 'authorization-server-discovery'
  | 'registration'
  | 'authorization'
  | 'authorization-response'
  | 'token'
  | 'url-policy';

/**
 * An authorization step failed: discovery found nothing usable, metadata was refused (issuer, PKCE,
 * resource), the authorization response did not validate, or a token request was rejected.
 * `code` is stable (`OAUTH_<STEP>`); `step` names the step; `cause` keeps the original error.
 */
export class OAuthError extends Error {
  readonly code: string;
  readonly step: OAuthStep;
  /** The `error` code of an OAuth error response, when the server sent one. */
  readonly oauthError: string | undefined;

  constructor(step: OAuthStep, message: string, options: { cause?: unknown; oauthError?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OAuthError';
    this.step = step;
    this.code = `OAUTH_${step.toUpperCase().replaceAll('-', '_')}`;
    this.oauthError = options.oauthError;
  }
}
