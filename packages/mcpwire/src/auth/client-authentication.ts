// Client authentication at the token endpoint (OAuth 2.1 §2.4, RFC 7523 §2.2): which method to use,
// and what it adds to the request (a Basic header, form fields, or a signed client assertion).

import { importPKCS8, SignJWT, type CryptoKey } from 'jose';
import type { AuthorizationServerMetadata } from './authorization-server.ts';
import { OAuthError } from './errors.ts';
import { createRandomToken } from './pkce.ts';
import type { ClientCredentials } from './token-store.ts';

/** What client authentication reads of a server's metadata (RFC 8414 §2). */
export type TokenEndpointMetadata = Pick<
  AuthorizationServerMetadata,
  | 'issuer'
  | 'token_endpoint'
  | 'token_endpoint_auth_methods_supported'
  | 'token_endpoint_auth_signing_alg_values_supported'
>;

/** The client authentication methods this client speaks at the token endpoint. */
export type TokenEndpointAuthMethod =
  'client_secret_basic' | 'client_secret_post' | 'none' | 'private_key_jwt';

/** `private_key_jwt` (RFC 7523 §2.2): the client proves itself with a JWT signed by its key. */
export interface PrivateKeyJwtAuth {
  method: 'private_key_jwt';
  /** The private key: a CryptoKey, or PKCS#8 PEM text. */
  key: CryptoKey | string;
  /** The JWS algorithm (ES256, RS256, EdDSA, ...). */
  alg: string;
  /** The `kid` header, when the authorization server knows the key by one. */
  kid?: string;
}

/** The `tokenEndpointAuth` option: a method name, or private_key_jwt with its key. */
export type TokenEndpointAuth = 'client_secret_basic' | 'client_secret_post' | 'none' | PrivateKeyJwtAuth;

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Lifetime of a client assertion: short, since each is used once (RFC 7523 §3). */
const ASSERTION_SECONDS = 300;

/**
 * The method to use: `configured` when given (refused with OAuthError when the server lists methods and
 * not this one); else the one registered, when the server supports it; else basic, then post, when the
 * client has a secret; else none. An absent `token_endpoint_auth_methods_supported` means basic
 * (RFC 8414 §2).
 */
export function selectAuthMethod(
  client: ClientCredentials,
  supported: readonly string[] | undefined,
  configured?: TokenEndpointAuth,
): TokenEndpointAuthMethod {
  if (configured !== undefined) {
    const method = typeof configured === 'string' ? configured : configured.method;
    if (supported !== undefined && !supported.includes(method))
      throw new OAuthError(
        'token',
        `tokenEndpointAuth is ${method}, but the authorization server supports only ${supported.join(', ')}; configure one of those`,
      );
    return method;
  }
  const methods = supported ?? ['client_secret_basic'];
  const registered = client.token_endpoint_auth_method;
  if (isSecretOrNone(registered) && methods.includes(registered)) return registered;
  if (client.client_secret !== undefined) {
    if (methods.includes('client_secret_basic')) return 'client_secret_basic';
    if (methods.includes('client_secret_post')) return 'client_secret_post';
  }
  return 'none';
}

function isSecretOrNone(method: string | undefined): method is TokenEndpointAuthMethod {
  return method === 'client_secret_basic' || method === 'client_secret_post' || method === 'none';
}

/** What authenticating one token request needs. */
export interface ClientAuthentication {
  client: ClientCredentials;
  metadata: TokenEndpointMetadata;
  configured?: TokenEndpointAuth;
  now: () => number;
}

/**
 * Adds the client's authentication to a token request's `headers` and form `params`. A `private_key_jwt`
 * assertion has `iss` = `sub` = client_id, `aud` = the issuer (RFC 7523bis), a fresh `jti` and a
 * five-minute lifetime.
 */
export async function authenticateClient(
  headers: Headers,
  params: URLSearchParams,
  auth: ClientAuthentication,
): Promise<void> {
  const { client, metadata, configured } = auth;
  const method = selectAuthMethod(client, metadata.token_endpoint_auth_methods_supported, configured);
  if (method === 'client_secret_basic') {
    // RFC 6749 §2.3.1: both parts form-encoded before base64.
    const pair = `${formEncode(client.client_id)}:${formEncode(client.client_secret ?? '')}`;
    headers.set('authorization', `Basic ${btoa(pair)}`);
    return;
  }
  params.set('client_id', client.client_id);
  if (method === 'client_secret_post') params.set('client_secret', client.client_secret ?? '');
  if (method === 'private_key_jwt') {
    if (typeof configured !== 'object')
      throw new OAuthError('token', 'private_key_jwt needs tokenEndpointAuth: { method, key, alg }');
    params.set('client_assertion_type', ASSERTION_TYPE);
    params.set(
      'client_assertion',
      await signClientAssertion(configured, client.client_id, metadata, auth.now),
    );
  }
}

async function signClientAssertion(
  auth: PrivateKeyJwtAuth,
  clientId: string,
  metadata: TokenEndpointMetadata,
  now: () => number,
): Promise<string> {
  const algs = metadata.token_endpoint_auth_signing_alg_values_supported;
  if (algs !== undefined && !algs.includes(auth.alg))
    throw new OAuthError(
      'token',
      `private_key_jwt signs with ${auth.alg}, but ${metadata.issuer} accepts only ${algs.join(', ')}`,
    );
  const key = typeof auth.key === 'string' ? await importPKCS8(auth.key, auth.alg) : auth.key;
  const issuedAt = Math.floor(now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: auth.alg, ...(auth.kid === undefined ? {} : { kid: auth.kid }) })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(metadata.issuer)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ASSERTION_SECONDS)
    .setJti(createRandomToken(16))
    .sign(key);
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}
