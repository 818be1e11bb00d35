// Mints what the token endpoint returns: an access token as a JWT (RFC 9068) bound to one resource
// (`aud`, RFC 8707), a rotating refresh token, and an ID token when `openid` was granted.

import { randomBytes, randomUUID } from 'node:crypto';
import type { ClientRecord } from './records.ts';
import type { ServerContext } from './server-context.ts';

/** What the tokens are for. */
export interface TokenGrant {
  client: ClientRecord;
  subject: string;
  /** The scopes of the access token. */
  scopes: readonly string[];
  resource: string;
  /** The refresh-token family to continue (rotation), or undefined for none. */
  familyId?: string;
  /** The scopes the refresh token keeps (RFC 6749 §6: identical across rotation). */
  refreshScopes?: readonly string[];
  /** Set to issue an OpenID Connect ID token, with the request's nonce when there was one. */
  idToken?: { nonce?: string };
}

/** The token response body (RFC 6749 §5.1). */
export async function issueTokens(
  grant: TokenGrant,
  context: ServerContext,
): Promise<Record<string, unknown>> {
  const { options, key, store } = context;
  const now = Math.floor(options.now() / 1000);
  const scope = grant.scopes.join(' ');
  const accessToken = await key.sign(
    {
      iss: options.issuer,
      sub: grant.subject,
      aud: grant.resource,
      client_id: grant.client.clientId,
      ...(scope === '' ? {} : { scope }),
      iat: now,
      exp: now + options.accessTokenTtlSeconds,
      jti: randomUUID(),
    },
    'at+jwt',
  );
  const body: Record<string, unknown> = {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: options.accessTokenTtlSeconds,
    ...(scope === '' ? {} : { scope }),
  };
  if (grant.familyId !== undefined) {
    const refreshToken = randomBytes(32).toString('base64url');
    store.putRefresh(refreshToken, {
      familyId: grant.familyId,
      clientId: grant.client.clientId,
      subject: grant.subject,
      scopes: grant.refreshScopes ?? grant.scopes,
      resource: grant.resource,
      isRotated: false,
    });
    body.refresh_token = refreshToken;
  }
  if (grant.idToken !== undefined)
    body.id_token = await key.sign(
      {
        iss: options.issuer,
        sub: grant.subject,
        aud: grant.client.clientId,
        iat: now,
        exp: now + options.accessTokenTtlSeconds,
        ...(grant.idToken.nonce === undefined ? {} : { nonce: grant.idToken.nonce }),
      },
      'JWT',
    );
  return body;
}
