// Client metadata (RFC 7591 §2) as a dynamic registration or a Client ID Metadata Document sends it:
// checked field by field into a ClientRecord, refusals as RFC 7591 §3.2.2 errors.

import { OAuthError } from './oauth-error.ts';
import type { ClientRecord, TokenEndpointAuthMethod } from './records.ts';
import { redirectUriProblem } from './redirect-uri.ts';

const AUTH_METHODS: ReadonlySet<string> = new Set(['none', 'client_secret_basic', 'client_secret_post']);
const GRANT_TYPES: ReadonlySet<string> = new Set(['authorization_code', 'refresh_token']);

/** The checked fields of a client's metadata (everything but its id and secret). */
export type CheckedMetadata = Pick<
  ClientRecord,
  'redirectUris' | 'tokenEndpointAuthMethod' | 'grantTypes' | 'clientName' | 'metadata'
>;

/**
 * Checks `body` as client metadata. `defaultAuthMethod` is RFC 7591's `client_secret_basic` for a
 * registration and `none` for a metadata document. Throws `invalid_redirect_uri` or `invalid_client_metadata`.
 */
export function checkClientMetadata(
  body: unknown,
  defaultAuthMethod: TokenEndpointAuthMethod,
): CheckedMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new OAuthError('invalid_client_metadata', 'the client metadata must be a JSON object');
  const metadata = body as Record<string, unknown>;
  const redirectUris = stringArray(metadata, 'redirect_uris');
  if (redirectUris === undefined || redirectUris.length === 0)
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris must list at least one redirect URI');
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem !== undefined) throw new OAuthError('invalid_redirect_uri', problem);
  }
  const method = metadata.token_endpoint_auth_method ?? defaultAuthMethod;
  if (typeof method !== 'string' || !AUTH_METHODS.has(method))
    throw new OAuthError(
      'invalid_client_metadata',
      `token_endpoint_auth_method ${JSON.stringify(method)} is not supported (expected one of ${[...AUTH_METHODS].join(', ')})`,
    );
  const grantTypes = stringArray(metadata, 'grant_types') ?? ['authorization_code'];
  const unknown = grantTypes.filter((grant) => !GRANT_TYPES.has(grant));
  if (unknown.length > 0)
    throw new OAuthError('invalid_client_metadata', `grant_types ${unknown.join(', ')} not supported`);
  const responseTypes = stringArray(metadata, 'response_types') ?? ['code'];
  // RFC 7591 §2.1: authorization_code goes with the `code` response type.
  if (responseTypes.some((type) => type !== 'code') || !grantTypes.includes('authorization_code'))
    throw new OAuthError(
      'invalid_client_metadata',
      'only the authorization_code grant with response_types ["code"] is supported',
    );
  const clientName = metadata.client_name;
  if (clientName !== undefined && typeof clientName !== 'string')
    throw new OAuthError('invalid_client_metadata', 'client_name must be a string');
  return {
    redirectUris,
    tokenEndpointAuthMethod: method as TokenEndpointAuthMethod,
    grantTypes,
    ...(clientName === undefined ? {} : { clientName }),
    metadata,
  };
}

function stringArray(metadata: Record<string, unknown>, field: string): string[] | undefined {
  const value = metadata[field];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    throw new OAuthError(
      field === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata',
      `${field} must be an array of strings`,
    );
  return value as string[];
}
