// A tiny authorization server on 127.0.0.1 for the resource server's tests: it signs JWT access tokens
// with jose keys it publishes as a JWKS (and can rotate), answers RFC 7662 introspection for opaque
// tokens it is told about, and runs an auto-approving authorization code flow (RFC 8414 metadata,
// dynamic registration, PKCE unchecked) whose tokens are JWTs for the `resource` requested.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';

/** The running issuer; `await using` closes it. */
export interface TestIssuer extends AsyncDisposable {
  /** Its origin, which is also its `issuer`. */
  origin: string;
  jwksUri: string;
  introspectionEndpoint: string;
  /** Counters of what it served. */
  counts: { jwks: number; introspection: number; token: number };
  /** Introspection answers by opaque token (absent: `{ active: false }`). */
  opaque: Map<string, Record<string, unknown>>;
  /** The status the JWKS endpoint answers; default 200. */
  jwksStatus: number;
  /** A signed access token: `iss` is this issuer, `iat`/`exp` from `now` (s) unless the claims set them. */
  mint(
    claims: Record<string, unknown>,
    options?: { now?: number; lifetime?: number; keyId?: string },
  ): Promise<string>;
  /** A new signing key; the JWKS then publishes only it. Resolves with the new key id. */
  rotate(): Promise<string>;
  /** The key id signing now. */
  readonly keyId: string;
  /** Claims the authorization code flow's tokens get (besides iss, aud = resource, exp, client_id). */
  flowClaims: JWTPayload;
}

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
type SigningKey = { kid: string; privateKey: PrivateKey; jwk: JWK };

async function newKey(index: number): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = `key-${index}`;
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

/** Starts the issuer on an ephemeral port of 127.0.0.1. */
export async function startTestIssuer(): Promise<TestIssuer> {
  const keys: SigningKey[] = [await newKey(1)];
  const codes = new Map<string, { resource: string; clientId: string; scope: string }>();
  let counter = 0;
  const issuer = {
    origin: '',
    jwksUri: '',
    introspectionEndpoint: '',
    counts: { jwks: 0, introspection: 0, token: 0 },
    opaque: new Map<string, Record<string, unknown>>(),
    jwksStatus: 200,
    flowClaims: { sub: 'alice' } as JWTPayload,
    get keyId() {
      return keys.at(-1)!.kid;
    },
    async mint(
      claims: Record<string, unknown>,
      options: { now?: number; lifetime?: number; keyId?: string } = {},
    ) {
      const key = keys.find((k) => k.kid === (options.keyId ?? issuer.keyId))!;
      const now = options.now ?? Math.floor(Date.now() / 1000);
      return new SignJWT({
        iat: now,
        exp: now + (options.lifetime ?? 300),
        iss: issuer.origin,
        ...claims,
      } as JWTPayload)
        .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })
        .sign(key.privateKey);
    },
    async rotate() {
      const key = await newKey(keys.length + 1);
      keys.splice(0, keys.length, key);
      return key.kid;
    },
  };
  const route = async (req: IncomingMessage, res: ServerResponse, body: string): Promise<void> => {
    const url = new URL(req.url ?? '/', issuer.origin);
    const form = new URLSearchParams(body);
    const origin = issuer.origin;
    switch (`${req.method} ${url.pathname}`) {
      case 'GET /jwks':
        issuer.counts.jwks++;
        return json(res, issuer.jwksStatus, { keys: keys.map((key) => key.jwk) });
      case 'POST /introspect':
        issuer.counts.introspection++;
        if (req.headers.authorization !== `Basic ${btoa('resource-server:rs-secret')}`)
          return json(res, 401, { error: 'invalid_client' });
        return json(res, 200, issuer.opaque.get(form.get('token') ?? '') ?? { active: false });
      case 'GET /.well-known/oauth-authorization-server':
        return json(res, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          jwks_uri: `${origin}/jwks`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
          authorization_response_iss_parameter_supported: true,
        });
      case 'POST /register': {
        const metadata = JSON.parse(body) as Record<string, unknown>;
        return json(res, 201, { ...metadata, client_id: `client-${++counter}` });
      }
      case 'GET /authorize': {
        const code = `code-${++counter}`;
        codes.set(code, {
          resource: url.searchParams.get('resource') ?? '',
          clientId: url.searchParams.get('client_id') ?? '',
          scope: url.searchParams.get('scope') ?? '',
        });
        const back = new URL(url.searchParams.get('redirect_uri')!);
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        back.searchParams.set('iss', origin);
        res.writeHead(302, { location: back.href }).end();
        return;
      }
      case 'POST /token': {
        issuer.counts.token++;
        const grant = codes.get(form.get('code') ?? '');
        if (form.get('grant_type') !== 'authorization_code' || grant === undefined)
          return json(res, 400, { error: 'invalid_grant' });
        codes.delete(form.get('code')!);
        const claims = { ...issuer.flowClaims, aud: grant.resource, client_id: grant.clientId };
        const token = await issuer.mint(grant.scope ? { ...claims, scope: grant.scope } : claims);
        return json(res, 200, {
          access_token: token,
          token_type: 'Bearer',
          expires_in: 300,
          scope: grant.scope,
        });
      }
      default:
        return json(res, 404, { error: 'not_found' });
    }
  };
  const server = createServer((req, res) => {
    void readBody(req)
      .then((body) => route(req, res, body))
      .catch(() => json(res, 500, { error: 'server_error' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer.jwksUri = `${issuer.origin}/jwks`;
  issuer.introspectionEndpoint = `${issuer.origin}/introspect`;
  return Object.assign(issuer, {
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
