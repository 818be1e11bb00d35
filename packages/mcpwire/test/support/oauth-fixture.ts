// A protected resource and an authorization server in one node:http server on 127.0.0.1, for the
// auth layer's tests: it logs every request, approves every authorization at once (redirecting back
// with a code), and issues opaque tokens with refresh tokens. Not an MCP server: the auth layer only
// wraps fetch, so `POST /mcp` answers 200 to a valid bearer token and 401 otherwise.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fixture received. */
export interface LoggedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The form body of a POST (token, registration bodies are parsed as forms or kept raw). */
  form: URLSearchParams;
  authorization: string | undefined;
  /** The `DPoP` proof header, if any. */
  dpop: string | undefined;
}

/** What a test's hook gives: its own answer, or undefined for the fixture's. */
export type Answering = FixtureAnswer | undefined | Promise<FixtureAnswer | undefined>;

/** A response a test chooses instead of the fixture's own. */
export interface FixtureAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** What the fixture answers, per test. */
export interface OAuthFixtureOptions {
  /** The authorization server metadata (given the origin); null for 404. Default: RFC 8414 at the root. */
  metadata?: (origin: string) => Record<string, unknown> | null;
  /** Paths (besides the defaults) that answer 404; used to see the discovery order. */
  missing?: readonly string[];
  /** The `WWW-Authenticate` of a 401 (given the origin). Default: Bearer with resource_metadata. */
  challenge?: (origin: string) => string;
  /** The `iss` of the authorization response (given the origin); default the origin (RFC 9207). */
  iss?: (origin: string) => string;
  /** Answers a token request instead of the fixture (undefined: the fixture answers). */
  token?: (request: LoggedRequest, origin: string) => Answering;
  /** Answers `POST /mcp` instead of the fixture (undefined: the fixture answers). */
  mcp?: (request: LoggedRequest, origin: string) => Answering;
}

/** The running fixture; `await using` closes it. */
export interface OAuthFixture extends AsyncDisposable {
  origin: string;
  requests: LoggedRequest[];
  /** Makes every token issued so far invalid (the next MCP request meets 401). */
  revokeAccessTokens(): void;
  /** Makes `token` valid at `POST /mcp` (for tokens a test's `token` answer issued). */
  acceptAccessToken(token: string): void;
}

/** Starts the fixture on an ephemeral port of 127.0.0.1. */
export async function startOAuthFixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const requests: LoggedRequest[] = [];
  const valid = new Set<string>();
  let counter = 0;
  let origin = '';
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const url = new URL(req.url ?? '/', origin);
      const logged: LoggedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        form: new URLSearchParams(req.headers['content-type']?.includes('form') ? body : ''),
        authorization: req.headers.authorization,
        dpop: typeof req.headers.dpop === 'string' ? req.headers.dpop : undefined,
      };
      requests.push(logged);
      return answerOf(logged).then((answer) => {
        if (answer === undefined) return route(logged, res);
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.body));
      });
    });
  });
  const answerOf = async (request: LoggedRequest): Promise<FixtureAnswer | undefined> => {
    if (request.method !== 'POST') return undefined;
    if (request.path === '/token') return options.token?.(request, origin);
    if (request.path === '/mcp') return options.mcp?.(request, origin);
    return undefined;
  };
  const route = (request: LoggedRequest, res: ServerResponse): void => {
    const { method, path } = request;
    if (options.missing?.includes(path)) return json(res, 404, { error: 'not_found' });
    if (method === 'GET' && path === '/.well-known/oauth-protected-resource/mcp')
      return json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (method === 'GET' && path === '/.well-known/oauth-authorization-server') {
      const metadata = options.metadata ? options.metadata(origin) : defaultMetadata(origin);
      return metadata === null ? json(res, 404, { error: 'not_found' }) : json(res, 200, metadata);
    }
    if (method === 'GET' && path === '/authorize') {
      const back = new URL(request.query.get('redirect_uri')!);
      back.searchParams.set('code', `code-${++counter}`);
      back.searchParams.set('state', request.query.get('state') ?? '');
      back.searchParams.set('iss', options.iss?.(origin) ?? origin);
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (method === 'POST' && path === '/register')
      return json(res, 201, { client_id: `client-${++counter}` });
    if (method === 'POST' && path === '/token') {
      const token = `at-${++counter}`;
      valid.add(token);
      return json(res, 200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: `rt-${counter}`,
      });
    }
    if (method === 'POST' && path === '/mcp') {
      const token = request.authorization?.replace(/^(Bearer|DPoP) /, '');
      if (token !== undefined && valid.has(token)) return json(res, 200, { ok: true });
      const challenge =
        options.challenge?.(origin) ??
        `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
      res.writeHead(401, { 'www-authenticate': challenge, 'content-type': 'application/json' });
      res.end('{"error":"invalid_token"}');
      return;
    }
    json(res, 404, { error: 'not_found' });
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    revokeAccessTokens: () => valid.clear(),
    acceptAccessToken: (token) => void valid.add(token),
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** RFC 8414 metadata with PKCE S256, dynamic registration and RFC 9207 `iss`. */
export function defaultMetadata(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
  };
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
