// Client authentication at the token and revocation endpoints (OAuth 2.1 §2.4): HTTP Basic, the
// form's client_secret, or none for a public client; each client only by the method it registered.

import { timingSafeEqual } from 'node:crypto';
import { OAuthError } from './oauth-error.ts';
import type { ClientRecord } from './records.ts';
import type { ServerContext } from './server-context.ts';

/** The authenticated client, and whether Basic was used (its `invalid_client` is a 401). */
export interface AuthenticatedClient {
  client: ClientRecord;
  usedBasic: boolean;
}

/** Authenticates the client of `request` with `form` (its parsed body). Throws `invalid_client`/`invalid_request`. */
export async function authenticateClient(
  request: Request,
  form: URLSearchParams,
  context: ServerContext,
): Promise<AuthenticatedClient> {
  const basic = parseBasic(request.headers.get('authorization'));
  const formId = form.get('client_id');
  const formSecret = form.get('client_secret');
  if (basic !== undefined && formSecret !== null)
    throw new OAuthError(
      'invalid_request',
      'use one client authentication method, not Basic and client_secret both',
    );
  if (basic !== undefined && formId !== null && formId !== basic.id)
    throw new OAuthError(
      'invalid_request',
      'client_id in the body differs from the one in the Authorization header',
    );
  const clientId = basic?.id ?? formId;
  if (clientId === null || clientId === '')
    throw new OAuthError(
      'invalid_client',
      'no client authentication: send client_id (public client) or HTTP Basic',
      401,
    );
  let client: ClientRecord;
  try {
    client = await context.resolveClient(clientId);
  } catch (error) {
    if (error instanceof OAuthError) throw new OAuthError('invalid_client', error.message, 401);
    throw error;
  }
  const method = client.tokenEndpointAuthMethod;
  const used =
    basic !== undefined ? 'client_secret_basic' : formSecret !== null ? 'client_secret_post' : 'none';
  if (used !== method)
    throw new OAuthError('invalid_client', `this client authenticates with ${method}, not ${used}`, 401);
  const secret = basic?.secret ?? formSecret;
  if (method !== 'none' && !isSameSecret(secret ?? '', client.clientSecret ?? ''))
    throw new OAuthError('invalid_client', 'client authentication failed', 401);
  return { client, usedBasic: basic !== undefined };
}

function parseBasic(header: string | null): { id: string; secret: string } | undefined {
  if (header === null || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_client', 'the Basic credentials have no ":"', 401);
  // RFC 6749 §2.3.1: id and secret are form-urlencoded before Basic encoding.
  const decode = (value: string): string => decodeURIComponent(value.replace(/\+/g, ' '));
  try {
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('invalid_client', 'the Basic credentials are not form-urlencoded', 401);
  }
}

function isSameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && expected !== '' && timingSafeEqual(a, b);
}
