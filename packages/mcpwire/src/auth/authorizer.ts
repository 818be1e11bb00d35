// The client's authorization state for one MCP server: the current token, and the flows that replace
// it (refresh, or discovery + registration + authorization code with PKCE), one at a time.

import {
  discoverAuthorizationServer,
  fallbackMetadata,
  type AuthorizationServerMetadata,
} from './authorization-server.ts';
import { parseAuthorizationResponse } from './authorization-response.ts';
import { OAuthError } from './errors.ts';
import type { AuthFetchContext } from './metadata-fetch.ts';
import type { OAuthClientOptions } from './oauth-options.ts';
import { createPkce, createRandomToken } from './pkce.ts';
import { discoverProtectedResource } from './protected-resource.ts';
import { resolveClient } from './registration.ts';
import { selectScope } from './scope.ts';
import { requestToken } from './token-request.ts';
import { createMemoryTokenStore, type IssuerRecord, type TokenStore, type Tokens } from './token-store.ts';
import { checkUrl } from './url-policy.ts';
import type { BearerChallenge } from './www-authenticate.ts';

/** Why a new token is needed. */
export interface Challenge {
  status: 401 | 403;
  challenge: BearerChallenge;
  /** The access token the refused request carried, if any. */
  sentToken: string | undefined;
}

/** Where the flow found the authorization server. */
interface Discovered {
  issuer: string;
  metadata: AuthorizationServerMetadata;
  resource: string;
  resourceScopes?: readonly string[];
}

/**
 * Holds the token for one MCP server and replaces it. Concurrency: at most one flow runs; callers
 * that meet a 401/403 while one runs wait for it, and a caller whose refused token was already
 * replaced just retries, so N concurrent 401s cause one refresh or one authorization.
 */
export class Authorizer {
  readonly #serverUrl: URL;
  readonly #options: OAuthClientOptions;
  readonly #store: TokenStore;
  readonly #context: AuthFetchContext;
  readonly #now: () => number;
  #issuer: string | undefined;
  #tokens: Tokens | undefined;
  #flight: Promise<void> | undefined;

  constructor(serverUrl: URL, options: OAuthClientOptions) {
    this.#serverUrl = serverUrl;
    this.#options = options;
    this.#store = options.store ?? createMemoryTokenStore();
    this.#now = options.now ?? Date.now;
    this.#context = {
      fetch: options.fetch ?? ((request) => fetch(request)),
      policy: { allowPrivateNetwork: options.allowPrivateNetwork ?? false },
      trustedOrigin: serverUrl.origin,
    };
  }

  /** The access token to send now (after any flow in progress, and refreshed first if expired). */
  async accessToken(): Promise<string | undefined> {
    if (this.#flight) await this.#flight.catch(() => undefined);
    const tokens = this.#tokens;
    if (
      tokens?.expiresAt !== undefined &&
      tokens.refreshToken !== undefined &&
      this.#now() >= tokens.expiresAt
    )
      await this.#single(() => this.#refreshExpired(tokens));
    return this.#tokens?.accessToken;
  }

  /** Obtains a new token after `refusal`; joins a flow in progress; rejects with OAuthError when it fails. */
  async handleChallenge(refusal: Challenge): Promise<void> {
    if (this.#flight) return this.#flight;
    if (this.#tokens?.accessToken !== refusal.sentToken) return;
    return this.#single(() => this.#renew(refusal));
  }

  #single(run: () => Promise<void>): Promise<void> {
    this.#flight ??= run().finally(() => (this.#flight = undefined));
    return this.#flight;
  }

  async #refreshExpired(tokens: Tokens): Promise<void> {
    if (this.#tokens !== tokens || this.#issuer === undefined) return;
    const discovered = await this.#discover(undefined);
    const record = (await this.#store.get(discovered.issuer)) ?? {};
    if (!(await this.#tryRefresh(discovered, record))) this.#tokens = undefined;
  }

  async #renew({ status, challenge }: Challenge): Promise<void> {
    const discovered = await this.#discover(challenge.resourceMetadata);
    const record = (await this.#store.get(discovered.issuer)) ?? {};
    const isStepUp = status === 403;
    if (!isStepUp && discovered.issuer === this.#issuer && (await this.#tryRefresh(discovered, record)))
      return;
    const scope = selectScope({
      ...(challenge.scope === undefined ? {} : { challenged: challenge.scope }),
      ...(discovered.resourceScopes === undefined ? {} : { resourceScopes: discovered.resourceScopes }),
      ...(discovered.metadata.scopes_supported === undefined
        ? {}
        : { serverScopes: discovered.metadata.scopes_supported }),
      ...(isStepUp && record.requestedScope !== undefined ? { previous: record.requestedScope } : {}),
      isOfflineAccessWanted: this.#options.isOfflineAccessWanted ?? true,
    });
    await this.#authorize(discovered, record, scope);
  }

  /** PRM (or, without one, the 2025-03-26 fallbacks), then the authorization server's metadata. */
  async #discover(resourceMetadata: string | undefined): Promise<Discovered> {
    const resource = await discoverProtectedResource(this.#serverUrl, resourceMetadata, this.#context);
    if (resource === undefined) {
      const origin = this.#serverUrl.origin;
      const metadata = (await discoverAuthorizationServer(origin, this.#context)) ?? fallbackMetadata(origin);
      return { issuer: origin, metadata, resource: canonicalServerUri(this.#serverUrl) };
    }
    const issuer = resource.authorizationServers[0]!;
    const metadata = await discoverAuthorizationServer(issuer, this.#context);
    if (metadata === undefined)
      throw new OAuthError(
        'authorization-server-discovery',
        `no authorization server metadata found for issuer ${issuer} (AUTH-12)`,
      );
    const found: Discovered = { issuer, metadata, resource: resource.resource };
    if (resource.scopesSupported !== undefined) found.resourceScopes = resource.scopesSupported;
    return found;
  }

  async #tryRefresh(discovered: Discovered, record: IssuerRecord): Promise<boolean> {
    const refreshToken = record.tokens?.refreshToken;
    if (refreshToken === undefined || record.client === undefined) return false;
    const params = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      resource: discovered.resource,
    });
    try {
      const tokens = await requestToken(params, { ...this.#tokenOptions(discovered), client: record.client });
      // A server that rotates nothing keeps the old refresh token valid (OAuth 2.1 §4.3.3).
      tokens.refreshToken ??= refreshToken;
      await this.#keep(discovered.issuer, { ...record, tokens });
      return true;
    } catch (error) {
      if (error instanceof OAuthError && error.oauthError !== undefined) return false;
      throw error;
    }
  }

  async #authorize(discovered: Discovered, record: IssuerRecord, scope: string | undefined): Promise<void> {
    const { metadata } = discovered;
    const options = this.#options;
    const client = await resolveClient(
      metadata,
      record.client,
      {
        redirectUri: options.redirectUri,
        clientMetadata: options.clientMetadata ?? {},
        ...(options.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: options.clientMetadataUrl }),
        preRegistered: options.preRegistered ?? [],
        applicationType: options.applicationType ?? 'native',
      },
      this.#context,
    );
    await this.#store.set(discovered.issuer, { ...record, client });
    const pkce = await createPkce();
    const state = createRandomToken();
    const url = new URL(metadata.authorization_endpoint);
    checkUrl(url, this.#context.policy, this.#context.trustedOrigin);
    const query = url.searchParams;
    query.set('response_type', 'code');
    query.set('client_id', client.client_id);
    query.set('redirect_uri', options.redirectUri);
    query.set('code_challenge', pkce.challenge);
    query.set('code_challenge_method', 'S256');
    query.set('state', state);
    query.set('resource', discovered.resource);
    if (scope !== undefined) query.set('scope', scope);
    const redirect = await options.authorize({
      url,
      issuer: metadata.issuer,
      state,
      redirectUri: options.redirectUri,
    });
    const code = parseAuthorizationResponse(new URL(redirect), {
      state,
      issuer: metadata.issuer,
      isIssSupported: metadata.authorization_response_iss_parameter_supported === true,
    });
    const params = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: pkce.verifier,
      redirect_uri: options.redirectUri,
      resource: discovered.resource,
    });
    const tokens = await requestToken(params, { ...this.#tokenOptions(discovered), client });
    await this.#keep(discovered.issuer, {
      client,
      tokens,
      resource: discovered.resource,
      ...(scope === undefined ? {} : { requestedScope: scope }),
    });
  }

  #tokenOptions(discovered: Discovered): {
    metadata: AuthorizationServerMetadata;
    context: AuthFetchContext;
    now: () => number;
  } {
    return { metadata: discovered.metadata, context: this.#context, now: this.#now };
  }

  async #keep(issuer: string, record: IssuerRecord): Promise<void> {
    await this.#store.set(issuer, record);
    this.#issuer = issuer;
    this.#tokens = record.tokens;
  }
}

/** The server URL as a `resource` when no metadata publishes one: without fragment (AUTH-20). */
function canonicalServerUri(serverUrl: URL): string {
  const url = new URL(serverUrl);
  url.hash = '';
  return url.href;
}
