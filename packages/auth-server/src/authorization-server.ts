// The development authorization server: one fetch-style handler routing each endpoint under the
// issuer (metadata, JWKS, authorize, consent, token, register, revoke), and `listen` on node:http.

import { handleAuthorize, handleConsent } from './authorization-endpoint.ts';
import { createClientResolver } from './client-id-document.ts';
import type { AuthorizationStore } from './authorization-store.ts';
import { createMemoryStore } from './memory-store.ts';
import { allowedHostnames, isHostAllowed } from './host-check.ts';
import { endpointsOf, metadataPaths, toMetadata } from './metadata.ts';
import { listenNode } from './node-listener.ts';
import { jsonResponse } from './oauth-error.ts';
import { resolveOptions, type AuthorizationServerOptions } from './options.ts';
import { handleRegistration } from './registration.ts';
import { handleRevocation } from './revocation-endpoint.ts';
import type { ServerContext } from './server-context.ts';
import { createSigningKey, type SigningKey } from './signing-key.ts';
import { createSqliteStore } from './sqlite-store.ts';
import { handleToken } from './token-endpoint.ts';

/** Where and how `listen` binds. */
export interface ListenOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Host header names (any port) answered besides the loopback ones, `host` and the issuer's host;
   * requests naming another get 403, so a web page cannot reach the server through DNS rebinding.
   */
  allowedHosts?: readonly string[];
  /** A client must send its request head within this many ms, else 408 and close; default 10,000. */
  headersTimeoutMs?: number;
  /** A client must send its whole request within this many ms, else 408 and close; default 30,000. */
  requestTimeoutMs?: number;
}

/** A listening authorization server; `await using` closes it. */
export interface ListeningAuthorizationServer extends AsyncDisposable {
  /** The issuer, which is also the base URL of every endpoint. */
  issuer: string;
  port: number;
  /** Stops listening, ends open connections, then closes the server's store (see `close` below). */
  close(): Promise<void>;
}

/** The authorization server: a handler for any HTTP runtime, and a node:http listener. */
export interface AuthorizationServer {
  /** The issuer; throws until it is known (given in the options, or set by `listen`). */
  readonly issuer: string;
  /** Answers one request. Never rejects for a bad request: every refusal is a response. */
  handle(request: Request): Promise<Response>;
  /** Listens on node:http. Without an `issuer` option, the issuer becomes `http://<host>:<port>`. */
  listen(options?: ListenOptions): Promise<ListeningAuthorizationServer>;
  /**
   * Closes the store (a SQLite file's connection); idempotent. Requests answered afterwards fail,
   * so close the listener first (its `close` does both).
   */
  close(): Promise<void>;
}

type Route = (request: Request, context: ServerContext) => Promise<Response>;

/**
 * A new authorization server with its own state (in memory, or in the SQLite file of `store`) and
 * signing key (kept in that store). It is for development and tests: every user is whoever the
 * consent page says. Opening a SQLite file that cannot be read or migrated throws here.
 */
export function createAuthorizationServer(options: AuthorizationServerOptions = {}): AuthorizationServer {
  const store = openStore(options.store);
  for (const client of options.clients ?? []) addStaticClient(store, client);
  // Made (or loaded) once, at creation; the first request waits for it.
  const key: Promise<SigningKey> = createSigningKey(store);
  // A failure surfaces on the first request; without this it would also be an unhandled rejection.
  key.catch(() => undefined);
  let isClosed = false;
  let configured: { context: Omit<ServerContext, 'key'>; routes: Map<string, Route> } | undefined;
  const setIssuer = (issuer: string): void => {
    const resolved = resolveOptions(issuer, options);
    const context = { options: resolved, store, resolveClient: createClientResolver(store, resolved) };
    configured = { context, routes: routesFor(issuer) };
  };
  if (options.issuer !== undefined) setIssuer(options.issuer);
  const server: AuthorizationServer = {
    get issuer() {
      if (configured === undefined)
        throw new Error('the issuer is not known yet: give the issuer option or call listen()');
      return configured.context.options.issuer;
    },
    async handle(request) {
      if (configured === undefined)
        return jsonResponse(
          { error: 'server_error', error_description: 'the issuer is not configured' },
          503,
        );
      const context = { ...configured.context, key: await key };
      // Expired consents and codes go before each request, so none outlives its lifetime by more.
      store.deleteExpired(context.options.now());
      return route(request, configured.routes, context);
    },
    async listen(listenOptions = {}) {
      const host = listenOptions.host ?? '127.0.0.1';
      let allowed: Set<string> | undefined;
      const listener = await listenNode((request) => server.handle(request), {
        port: listenOptions.port ?? 0,
        host,
        isHostAllowed: (header) => {
          // The issuer's host joins once the issuer is known (set below when it was not given).
          const issuer = configured?.context.options.issuer;
          const names = [...(listenOptions.allowedHosts ?? [])];
          if (issuer === undefined) return isHostAllowed(header, allowedHostnames(host, names));
          allowed ??= allowedHostnames(host, [new URL(issuer).hostname, ...names]);
          return isHostAllowed(header, allowed);
        },
        ...(listenOptions.headersTimeoutMs === undefined
          ? {}
          : { headersTimeoutMs: listenOptions.headersTimeoutMs }),
        ...(listenOptions.requestTimeoutMs === undefined
          ? {}
          : { requestTimeoutMs: listenOptions.requestTimeoutMs }),
      });
      if (options.issuer === undefined) setIssuer(`http://${issuerHost(host)}:${listener.port}`);
      const close = async (): Promise<void> => {
        await listener.close();
        await server.close();
      };
      return { issuer: server.issuer, port: listener.port, close, [Symbol.asyncDispose]: close };
    },
    async close() {
      if (isClosed) return;
      isClosed = true;
      // The key may still be being saved; the store closes after that write.
      await key.catch(() => undefined);
      store.close();
    },
  };
  return server;
}

function openStore(store: AuthorizationServerOptions['store']): AuthorizationStore {
  if (store === undefined || store === 'memory') return createMemoryStore();
  return createSqliteStore(store.file);
}

function routesFor(issuer: string): Map<string, Route> {
  const path = (url: string): string => new URL(url).pathname;
  const endpoints = endpointsOf(issuer);
  const routes = new Map<string, Route>();
  const metadata: Route = async (request, context) =>
    only(request, 'GET') ?? jsonResponse(toMetadata(context.options), 200, PUBLIC);
  for (const wellKnown of metadataPaths(issuer)) routes.set(wellKnown, metadata);
  routes.set(
    path(endpoints.jwks),
    async (request, context) => only(request, 'GET') ?? jsonResponse(context.key.jwks, 200, PUBLIC),
  );
  routes.set(path(endpoints.authorization), async (request, context) =>
    request.method === 'POST'
      ? handleConsent(request, context)
      : (only(request, 'GET') ?? handleAuthorize(request, context, `${issuer}/authorize`)),
  );
  routes.set(
    path(endpoints.token),
    async (request, context) => only(request, 'POST') ?? withCors(await handleToken(request, context)),
  );
  routes.set(
    path(endpoints.registration),
    async (request, context) =>
      only(request, 'POST') ??
      withCors(await handleRegistration(request, context.store, context.options.now)),
  );
  routes.set(
    path(endpoints.revocation),
    async (request, context) => only(request, 'POST') ?? withCors(await handleRevocation(request, context)),
  );
  return routes;
}

/** Browser-based clients (an inspector) read metadata and call the token endpoint cross-origin. */
const PUBLIC: Record<string, string> = { 'access-control-allow-origin': '*' };

async function route(
  request: Request,
  routes: Map<string, Route>,
  context: ServerContext,
): Promise<Response> {
  const handler = routes.get(new URL(request.url).pathname);
  if (handler === undefined)
    return jsonResponse(
      { error: 'not_found', error_description: `no endpoint at ${new URL(request.url).pathname}` },
      404,
    );
  if (request.method === 'OPTIONS')
    return new Response(null, {
      status: 204,
      headers: {
        ...PUBLIC,
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
  return handler(request, context);
}

function only(request: Request, method: string): Response | undefined {
  if (request.method === method || (method === 'GET' && request.method === 'HEAD')) return undefined;
  return new Response(`use ${method}\n`, {
    status: 405,
    headers: { allow: method, 'content-type': 'text/plain' },
  });
}

function withCors(response: Response): Response {
  response.headers.set('access-control-allow-origin', '*');
  return response;
}

function issuerHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function addStaticClient(
  store: AuthorizationStore,
  client: NonNullable<AuthorizationServerOptions['clients']>[number],
): void {
  const method =
    client.tokenEndpointAuthMethod ?? (client.clientSecret === undefined ? 'none' : 'client_secret_basic');
  store.putClient({
    clientId: client.clientId,
    ...(client.clientSecret === undefined ? {} : { clientSecret: client.clientSecret }),
    redirectUris: client.redirectUris,
    tokenEndpointAuthMethod: method,
    grantTypes: ['authorization_code', 'refresh_token'],
    ...(client.clientName === undefined ? {} : { clientName: client.clientName }),
    source: 'static',
    metadata: {},
  });
}
