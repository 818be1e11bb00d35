// Validates an authorization request (OAuth 2.1 §4.1.1, RFC 8707 §2) into an AuthorizationGrant.
// A bad client or redirect URI is shown on a page (never redirected to, AUTH-32); every later
// problem goes back to the client's redirect URI as an RFC 6749 §4.1.2.1 error.

import { OAuthError } from './oauth-error.ts';
import type { AuthorizationGrant, ClientRecord } from './records.ts';
import { isRegisteredRedirectUri } from './redirect-uri.ts';
import type { ServerContext } from './server-context.ts';

/** Parameters that must not appear more than once (RFC 6749 §3.1). */
const SINGLE = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'nonce',
] as const;

/** A request that cannot go back to the client: shown as an error page. */
export class UnredirectableError extends OAuthError {}

/** A valid request's client and grant, or the problem to redirect back with `state`. */
export type CheckedRequest =
  | { client: ClientRecord; grant: AuthorizationGrant }
  | { client: ClientRecord; redirectUri: string; state?: string; error: OAuthError };

/** Checks `params`; throws {@link UnredirectableError} for a request that cannot be answered by redirect. */
export async function checkAuthorizationRequest(
  params: URLSearchParams,
  context: ServerContext,
): Promise<CheckedRequest> {
  const clientId = params.get('client_id');
  if (clientId === null || clientId === '' || params.getAll('client_id').length > 1)
    throw new UnredirectableError('invalid_request', 'send exactly one client_id');
  let client: ClientRecord;
  try {
    client = await context.resolveClient(clientId);
  } catch (error) {
    if (error instanceof OAuthError) throw new UnredirectableError('invalid_client', error.message);
    throw error;
  }
  const redirectUri = redirectUriOf(params, client);
  const state = params.get('state') ?? undefined;
  try {
    return { client, grant: toGrant(params, client, redirectUri, context) };
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return { client, redirectUri, ...(state === undefined ? {} : { state }), error };
  }
}

function redirectUriOf(params: URLSearchParams, client: ClientRecord): string {
  const uris = params.getAll('redirect_uri');
  if (uris.length > 1)
    throw new UnredirectableError('invalid_request', 'redirect_uri appears more than once');
  const [uri] = uris;
  if (uri === undefined) {
    // OAuth 2.1 §2.3.2: it may be left out only when exactly one is registered.
    if (client.redirectUris.length === 1) return client.redirectUris[0]!;
    throw new UnredirectableError('invalid_request', 'send redirect_uri: this client registered several');
  }
  // The registered URIs are not named: whoever can start an authorization could read them here.
  if (!isRegisteredRedirectUri(uri, client.redirectUris))
    throw new UnredirectableError(
      'invalid_request',
      `redirect_uri "${uri}" is not registered for this client`,
    );
  return uri;
}

function toGrant(
  params: URLSearchParams,
  client: ClientRecord,
  redirectUri: string,
  context: ServerContext,
): AuthorizationGrant {
  for (const name of SINGLE)
    if (params.getAll(name).length > 1)
      throw new OAuthError('invalid_request', `${name} appears more than once`);
  const responseType = params.get('response_type');
  if (responseType === null)
    throw new OAuthError('invalid_request', 'response_type is missing (expected "code")');
  if (responseType !== 'code')
    throw new OAuthError(
      'unsupported_response_type',
      `response_type "${responseType}" is not supported (only "code")`,
    );
  if (!client.grantTypes.includes('authorization_code'))
    throw new OAuthError('unauthorized_client', 'this client did not register the authorization_code grant');
  const codeChallenge = checkPkce(params);
  const scopes = checkScopes(params.get('scope'), context.options.scopesSupported);
  const resource = checkResource(params.getAll('resource'), context.options.defaultResource);
  const state = params.get('state');
  const nonce = params.get('nonce');
  return {
    clientId: client.clientId,
    redirectUri,
    scopes,
    resource,
    codeChallenge,
    ...(state === null ? {} : { state }),
    ...(nonce === null ? {} : { nonce }),
  };
}

function checkPkce(params: URLSearchParams): string {
  const challenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  if (challenge === null)
    throw new OAuthError(
      'invalid_request',
      'PKCE is required: send code_challenge and code_challenge_method=S256',
    );
  // OAuth 2.1 §4.1.1: a missing method means `plain`, which this server refuses (AUTH-31).
  if (method !== 'S256')
    throw new OAuthError(
      'invalid_request',
      `code_challenge_method must be S256 (received ${method === null ? 'none, which means plain' : `"${method}"`})`,
    );
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge))
    throw new OAuthError(
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the verifier (43 characters)',
    );
  return challenge;
}

/** The scopes of a space-separated `scope` value, each known when a list of supported scopes is set. */
export function checkScopes(scope: string | null, supported: readonly string[] | undefined): string[] {
  const scopes = scope === null ? [] : scope.split(' ').filter((item) => item !== '');
  const unknown = supported === undefined ? [] : scopes.filter((item) => !supported.includes(item));
  if (unknown.length > 0)
    throw new OAuthError(
      'invalid_scope',
      `unknown scope ${unknown.join(' ')} (supported: ${supported!.join(' ')})`,
    );
  return [...new Set(scopes)];
}

/** The one `resource` of a request (RFC 8707 §2): an absolute URI without a fragment. */
export function checkResource(values: readonly string[], fallback: string | undefined): string {
  if (values.length > 1) throw new OAuthError('invalid_target', 'send one resource per request');
  const [resource = fallback] = values;
  if (resource === undefined)
    throw new OAuthError('invalid_target', 'send resource=<the MCP server URL> (RFC 8707, AUTH-19)');
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    throw new OAuthError('invalid_target', `resource "${resource}" is not an absolute URI`);
  }
  if (url.hash !== '' || resource.includes('#'))
    throw new OAuthError('invalid_target', `resource "${resource}" must not have a fragment`);
  return resource;
}
