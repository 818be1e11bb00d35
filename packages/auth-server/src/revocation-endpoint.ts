// Token revocation (RFC 7009): a client revokes its refresh token, which ends the token's whole
// family. Access tokens are self-contained JWTs and stay valid until they expire (documented).

import { authenticateClient } from './client-authentication.ts';
import { OAuthError, toErrorResponse } from './oauth-error.ts';
import type { ServerContext } from './server-context.ts';
import { readForm } from './token-endpoint.ts';

/** Handles `POST <issuer>/revoke`: 200 whether or not the token was known (RFC 7009 §2.2). */
export async function handleRevocation(request: Request, context: ServerContext): Promise<Response> {
  let usedBasic = false;
  try {
    const form = await readForm(request);
    const { client, usedBasic: basic } = await authenticateClient(request, form, context);
    usedBasic = basic;
    const token = form.get('token');
    if (token === null) throw new OAuthError('invalid_request', 'token is missing');
    const record = context.store.getRefresh(token);
    // RFC 7009 §2.1: only the client the token was issued to may revoke it; others get 200 and no effect.
    if (record !== undefined && record.clientId === client.clientId)
      context.store.revokeFamily(record.familyId);
    return new Response(null, { status: 200, headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    if (error instanceof OAuthError) return toErrorResponse(error, usedBasic);
    throw error;
  }
}
