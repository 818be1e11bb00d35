// The token endpoint (OAuth 2.1 §3.2): the authorization_code grant with PKCE S256 (§4.1.3) and the
// refresh_token grant with rotation (§4.3, AUTH-29): presenting a rotated refresh token again revokes
// its whole family, as a stolen token's replay would.

import { createHash, randomUUID } from 'node:crypto';
import { checkResource, checkScopes } from './authorization-request.ts';
import { authenticateClient } from './client-authentication.ts';
import { jsonResponse, OAuthError, toErrorResponse } from './oauth-error.ts';
import type { ClientRecord } from './records.ts';
import type { ServerContext } from './server-context.ts';
import { issueTokens } from './token-issuer.ts';

/** Handles `POST <issuer>/token`; every refusal is an RFC 6749 §5.2 error response. */
export async function handleToken(request: Request, context: ServerContext): Promise<Response> {
  let usedBasic = false;
  try {
    const form = await readForm(request);
    const authenticated = await authenticateClient(request, form, context);
    usedBasic = authenticated.usedBasic;
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code')
      return jsonResponse(await redeemCode(form, authenticated.client, context));
    if (grantType === 'refresh_token')
      return jsonResponse(await rotateRefresh(form, authenticated.client, context));
    throw grantType === null
      ? new OAuthError('invalid_request', 'grant_type is missing')
      : new OAuthError(
          'unsupported_grant_type',
          `grant_type "${grantType}" is not supported (authorization_code, refresh_token)`,
        );
  } catch (error) {
    if (error instanceof OAuthError) return toErrorResponse(error, usedBasic);
    throw error;
  }
}

/** The form body; RFC 6749 §3.2 requires application/x-www-form-urlencoded and no repeated parameter. */
export async function readForm(request: Request): Promise<URLSearchParams> {
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded'))
    throw new OAuthError(
      'invalid_request',
      `send the request as application/x-www-form-urlencoded (received "${type}")`,
    );
  const form = new URLSearchParams(await request.text());
  for (const name of new Set(form.keys()))
    if (name !== 'resource' && form.getAll(name).length > 1)
      throw new OAuthError('invalid_request', `${name} appears more than once`);
  return form;
}

async function redeemCode(
  form: URLSearchParams,
  client: ClientRecord,
  context: ServerContext,
): Promise<Record<string, unknown>> {
  const code = form.get('code');
  if (code === null) throw new OAuthError('invalid_request', 'code is missing');
  const record = context.store.getCode(code);
  if (record === undefined) throw new OAuthError('invalid_grant', 'the authorization code is unknown');
  if (record.isUsed) {
    // RFC 6749 §4.1.2: a code used twice revokes the tokens issued for it.
    if (record.familyId !== undefined) context.store.revokeFamily(record.familyId);
    throw new OAuthError(
      'invalid_grant',
      'the authorization code was already used; the tokens issued for it are revoked',
    );
  }
  const { grant } = record;
  if (record.expiresAt <= context.options.now())
    throw new OAuthError('invalid_grant', 'the authorization code has expired');
  if (grant.clientId !== client.clientId)
    throw new OAuthError('invalid_grant', 'the authorization code was issued to another client');
  const redirectUri = form.get('redirect_uri');
  if (redirectUri === null ? client.redirectUris.length > 1 : redirectUri !== grant.redirectUri)
    throw new OAuthError('invalid_grant', 'redirect_uri does not match the one of the authorization request');
  checkVerifier(form.get('code_verifier'), grant.codeChallenge);
  const resource = form.getAll('resource');
  if (resource.length > 0 && checkResource(resource, undefined) !== grant.resource)
    throw new OAuthError('invalid_target', `resource must be "${grant.resource}", the one authorized`);
  const hasRefresh = client.grantTypes.includes('refresh_token') || grant.scopes.includes('offline_access');
  const familyId = hasRefresh ? randomUUID() : undefined;
  // Marked before any await: a second redemption racing this one sees it used.
  context.store.putCode(code, { ...record, isUsed: true, ...(familyId === undefined ? {} : { familyId }) });
  return issueTokens(
    {
      client,
      subject: record.subject,
      scopes: grant.scopes,
      resource: grant.resource,
      ...(familyId === undefined ? {} : { familyId }),
      ...(grant.scopes.includes('openid')
        ? { idToken: grant.nonce === undefined ? {} : { nonce: grant.nonce } }
        : {}),
    },
    context,
  );
}

/** PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA256(verifier)) equals the challenge. */
function checkVerifier(verifier: string | null, challenge: string): void {
  if (verifier === null)
    throw new OAuthError('invalid_request', 'code_verifier is missing (PKCE is required)');
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier))
    throw new OAuthError(
      'invalid_request',
      'code_verifier must be 43 to 128 unreserved characters (RFC 7636 §4.1)',
    );
  if (createHash('sha256').update(verifier).digest('base64url') !== challenge)
    throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge (PKCE)');
}

async function rotateRefresh(
  form: URLSearchParams,
  client: ClientRecord,
  context: ServerContext,
): Promise<Record<string, unknown>> {
  const token = form.get('refresh_token');
  if (token === null) throw new OAuthError('invalid_request', 'refresh_token is missing');
  const record = context.store.getRefresh(token);
  if (record === undefined || record.clientId !== client.clientId)
    throw new OAuthError('invalid_grant', 'the refresh token is unknown or was issued to another client');
  if (context.store.isFamilyRevoked(record.familyId))
    throw new OAuthError('invalid_grant', 'the refresh token was revoked');
  if (record.isRotated) {
    context.store.revokeFamily(record.familyId);
    throw new OAuthError(
      'invalid_grant',
      'the refresh token was already used; every token of its family is now revoked',
    );
  }
  const requested = form.get('scope');
  const scopes = requested === null ? record.scopes : checkScopes(requested, undefined);
  const extra = scopes.filter((scope) => !record.scopes.includes(scope));
  if (extra.length > 0)
    throw new OAuthError('invalid_scope', `scope ${extra.join(' ')} was not granted to this refresh token`);
  const resource = form.getAll('resource');
  if (resource.length > 0 && checkResource(resource, undefined) !== record.resource)
    throw new OAuthError('invalid_target', `resource must be "${record.resource}", the one authorized`);
  // Rotation (OAuth 2.1 §4.3.1): this token is spent before the successor exists.
  context.store.putRefresh(token, { ...record, isRotated: true });
  return issueTokens(
    {
      client,
      subject: record.subject,
      scopes,
      resource: record.resource,
      familyId: record.familyId,
      refreshScopes: record.scopes,
    },
    context,
  );
}
