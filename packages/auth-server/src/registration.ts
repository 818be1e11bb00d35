// Dynamic client registration (RFC 7591; AUTH-3, S26-AUTH-6): POST a JSON metadata document to the
// registration endpoint, get a client_id (and a secret for a confidential client) back.

import { randomBytes } from 'node:crypto';
import { checkClientMetadata } from './client-metadata.ts';
import type { AuthorizationStore } from './authorization-store.ts';
import { jsonResponse, OAuthError, toErrorResponse } from './oauth-error.ts';
import type { ClientRecord } from './records.ts';

/**
 * Handles a registration request: 201 with the client information response (RFC 7591 §3.2.1), or
 * 400 with `invalid_redirect_uri` / `invalid_client_metadata` (§3.2.2).
 */
export async function handleRegistration(
  request: Request,
  store: AuthorizationStore,
  now: () => number,
): Promise<Response> {
  try {
    if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json'))
      throw new OAuthError('invalid_client_metadata', 'send the client metadata as application/json');
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      throw new OAuthError('invalid_client_metadata', 'the request body is not valid JSON');
    }
    const checked = checkClientMetadata(body, 'client_secret_basic');
    const clientId = `dev-client-${randomBytes(12).toString('base64url')}`;
    const isConfidential = checked.tokenEndpointAuthMethod !== 'none';
    const clientSecret = isConfidential ? randomBytes(32).toString('base64url') : undefined;
    const client: ClientRecord = {
      ...checked,
      clientId,
      ...(clientSecret === undefined ? {} : { clientSecret }),
      source: 'registered',
    };
    store.putClient(client);
    return jsonResponse(
      {
        ...checked.metadata,
        client_id: clientId,
        client_id_issued_at: Math.floor(now() / 1000),
        ...(clientSecret === undefined ? {} : { client_secret: clientSecret, client_secret_expires_at: 0 }),
        redirect_uris: checked.redirectUris,
        token_endpoint_auth_method: checked.tokenEndpointAuthMethod,
        grant_types: checked.grantTypes,
        response_types: ['code'],
      },
      201,
    );
  } catch (error) {
    if (error instanceof OAuthError) return toErrorResponse(error);
    throw error;
  }
}
