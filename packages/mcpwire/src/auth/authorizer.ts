// The client's authorization state for one MCP server: the current token, and the flows that replace
// it (refresh, or discovery then the grant: authorization code with PKCE, or a machine grant), one at a time.

import {
  discoverAuthorizationServer,
  fallbackMetadata,
  type AuthorizationServerMetadata,
} from './authorization-server.ts';
import { parseAuthorizationResponse } from './authorization-response.ts';
import { DpopProver } from './dpop.ts';
import { OAuthError } from './errors.ts';
import { requestGrantToken, type MachineGrant } from './grants.ts';
import type { AuthFetchContext } from './metadata-fetch.ts';
import type { OAuthClientOptions } from './oauth-options.ts';
import { createPkce, createRandomToken } from './pkce.ts';
import { discoverProtectedResource } from './protected-resource.ts';
import { resolveClient } from './registration.ts';
import { selectScope } from './scope.ts';
import { requestToken, type TokenPostOptions } from './token-request.ts';
import {
  createMemoryTokenStore,
  type ClientCredentials,
  type IssuerRecord,
  type TokenStore,
  type Tokens,
} from './token-store.ts';
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
  /** The proof key of DPoP-bound tokens, when the `dpop` option is on. */
  readonly dpop: DpopProver | undefined;
  readonly #serverUrl: URL;
  readonly #options: OAuthClientOptions;
  readonly #store: TokenStore;
  readonly #context: AuthFetchContext;
  readonly #now: () => number;
  #issuer: string | undefined;
  #tokens: Tokens | undefined;
  #flight: Promise<void> | undefined;
  /** What discovery demands of the metadata: the browser grant needs PKCE and an authorization endpoint. */
  readonly #discovery: { isBrowserGrant: boolean };

  constructor(serverUrl: URL, options: OAuthClientOptions) {
    this.#serverUrl = serverUrl;
    this.#options = options;
    this.#store = options.store ?? createMemoryTokenStore();
    this.#now = options.now ?? Date.now;
    this.#discovery = {
      isBrowserGrant: (options.grant?.type ?? 'authorization_code') === 'authorization_code',
    };
    this.dpop = options.dpop === undefined ? undefined : new DpopProver(options.dpop, this.#now);
    this.#context = {
      fetch: options.fetch ?? ((request) => fetch(request)),
      policy: { allowPrivateNetwork: options.allowPrivateNetwork ?? false },
      trustedOrigin: serverUrl.origin,
    };
  }

  /** The tokens to send now (after any flow in progress, and refreshed first if expired). */
  async currentTokens(): Promise<Tokens | undefined> {
    if (this.#flight) await this.#flight.catch(() => undefined);
    const tokens = this.#tokens;
    if (
      tokens?.expiresAt !== undefined &&
      tokens.refreshToken !== undefined &&
      this.#now() >= tokens.expiresAt
    )
      await this.#single(() => this.#refreshExpired(tokens));
    return this.#tokens;
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
    await this.#exclusive(async () => {
      const record = (await this.#store.get(discovered.issuer)) ?? {};
      // Another client of a shared store may have refreshed meanwhile (a rotated refresh token).
      if (this.#adoptStored(discovered, record, tokens.accessToken)) return;
      if (!(await this.#tryRefresh(discovered, record))) this.#tokens = undefined;
    });
  }

  /**
   * Runs a flow under the store's cross-client lock, if it has one: the record is read inside, so a
   * client that waited adopts what the holder stored instead of registering and logging in again.
   */
  #exclusive(flow: () => Promise<void>): Promise<void> {
    const store = this.#store;
    return store.exclusive === undefined ? flow() : store.exclusive(flow);
  }

  async #renew(refusal: Challenge): Promise<void> {
    const discovered = await this.#discover(refusal.challenge.resourceMetadata);
    await this.#exclusive(() => this.#renewDiscovered(refusal, discovered));
  }

  async #renewDiscovered({ status, challenge, sentToken }: Challenge, discovered: Discovered): Promise<void> {
    const record = (await this.#store.get(discovered.issuer)) ?? {};
    const isStepUp = status === 403;
    if (!isStepUp && this.#adoptStored(discovered, record, sentToken)) return;
    const isOurs = this.#issuer === undefined || discovered.issuer === this.#issuer;
    if (!isStepUp && isOurs && (await this.#tryRefresh(discovered, record))) return;
    const grant = this.#options.grant ?? { type: 'authorization_code' };
    const isMachine = grant.type !== 'authorization_code';
    const scope =
      this.#options.scope ??
      selectScope({
        ...(challenge.scope === undefined ? {} : { challenged: challenge.scope }),
        ...(discovered.resourceScopes === undefined ? {} : { resourceScopes: discovered.resourceScopes }),
        ...(discovered.metadata.scopes_supported === undefined
          ? {}
          : { serverScopes: discovered.metadata.scopes_supported }),
        ...(isStepUp && record.requestedScope !== undefined ? { previous: record.requestedScope } : {}),
        // A machine grant can run again at any time: no refresh token to ask for.
        isOfflineAccessWanted: !isMachine && (this.#options.isOfflineAccessWanted ?? true),
      });
    if (isMachine) await this.#runGrant(grant, discovered, record, scope);
    else await this.#authorize(discovered, record, scope);
  }

  /** A machine grant with the configured client (or a pre-registered one for the issuer), if any. */
  async #runGrant(
    grant: MachineGrant,
    discovered: Discovered,
    record: IssuerRecord,
    scope: string | undefined,
  ): Promise<void> {
    const client = this.#configuredClient(discovered.issuer) ?? record.client;
    const post = this.#tokenOptions(discovered);
    const tokens = await requestGrantToken(grant, {
      resource: discovered.resource,
      scope,
      post: client === undefined ? post : { ...post, client },
    });
    await this.#keep(discovered.issuer, {
      ...(client === undefined ? {} : { client }),
      tokens,
      resource: discovered.resource,
      ...(scope === undefined ? {} : { requestedScope: scope }),
    });
  }

  #configuredClient(issuer: string): ClientCredentials | undefined {
    const configured = this.#options.client;
    if (configured !== undefined && (configured.issuer === undefined || configured.issuer === issuer)) {
      const { issuer: _issuer, ...credentials } = configured;
      return credentials;
    }
    const preRegistered = this.#options.preRegistered?.find((client) => client.issuer === issuer);
    if (preRegistered === undefined) return undefined;
    const { issuer: _issuer, ...credentials } = preRegistered;
    return credentials;
  }

  /** PRM (or, without one, the 2025-03-26 fallbacks), then the authorization server's metadata. */
  async #discover(resourceMetadata: string | undefined): Promise<Discovered> {
    const resource = await discoverProtectedResource(this.#serverUrl, resourceMetadata, this.#context);
    if (resource === undefined) {
      const origin = this.#serverUrl.origin;
      const metadata =
        (await discoverAuthorizationServer(origin, this.#context, this.#discovery)) ??
        fallbackMetadata(origin);
      return { issuer: origin, metadata, resource: canonicalServerUri(this.#serverUrl) };
    }
    const issuer = resource.authorizationServers[0]!;
    const metadata = await discoverAuthorizationServer(issuer, this.#context, this.#discovery);
    if (metadata === undefined)
      throw new OAuthError(
        'authorization-server-discovery',
        `no authorization server metadata found for issuer ${issuer} (AUTH-12)`,
      );
    const found: Discovered = { issuer, metadata, resource: resource.resource };
    if (resource.scopesSupported !== undefined) found.resourceScopes = resource.scopesSupported;
    return found;
  }

  /**
   * A store that outlives this Authorizer (a file) may hold tokens for this resource from an earlier
   * run, or from another client of the same store: the first 401 of a run tries them (or refreshes them
   * when expired) before a new authorization, and a later 401 or expiry takes tokens another client
   * stored since for the same issuer.
   */
  #adoptStored(discovered: Discovered, record: IssuerRecord, sentToken: string | undefined): boolean {
    const stored = record.tokens;
    if (stored === undefined || record.resource !== discovered.resource) return false;
    if (this.#issuer !== undefined && this.#issuer !== discovered.issuer) return false;
    if (stored.accessToken === sentToken) return false;
    if (stored.expiresAt !== undefined && this.#now() >= stored.expiresAt) return false;
    this.#issuer = discovered.issuer;
    this.#tokens = stored;
    return true;
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
    const { authorize, redirectUri } = options;
    if (authorize === undefined || redirectUri === undefined)
      throw new OAuthError(
        'authorization',
        `${metadata.issuer}: the authorization_code grant needs the authorize and redirectUri options (or choose another grant with the grant option)`,
      );
    const client = await resolveClient(
      metadata,
      this.#configuredClient(discovered.issuer) ?? record.client,
      {
        redirectUri,
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
    if (metadata.authorization_endpoint === undefined)
      throw new OAuthError(
        'authorization-server-discovery',
        `${metadata.issuer} has no authorization_endpoint`,
      );
    const url = new URL(metadata.authorization_endpoint);
    checkUrl(url, this.#context.policy, this.#context.trustedOrigin);
    const query = url.searchParams;
    query.set('response_type', 'code');
    query.set('client_id', client.client_id);
    query.set('redirect_uri', redirectUri);
    query.set('code_challenge', pkce.challenge);
    query.set('code_challenge_method', 'S256');
    query.set('state', state);
    query.set('resource', discovered.resource);
    if (scope !== undefined) query.set('scope', scope);
    const redirect = await authorize({ url, issuer: metadata.issuer, state, redirectUri });
    const code = parseAuthorizationResponse(new URL(redirect), {
      state,
      issuer: metadata.issuer,
      isIssSupported: metadata.authorization_response_iss_parameter_supported === true,
    });
    const params = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: pkce.verifier,
      redirect_uri: redirectUri,
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

  /** How token requests to the discovered server are made: its metadata, the auth method, DPoP. */
  #tokenOptions(discovered: Discovered): TokenPostOptions {
    const { metadata } = discovered;
    const { tokenEndpointAuth } = this.#options;
    const dpop = this.dpop;
    const algs = metadata.dpop_signing_alg_values_supported;
    if (dpop !== undefined && algs !== undefined && !algs.includes(dpop.alg))
      throw new OAuthError(
        'token',
        `${metadata.issuer} accepts DPoP proofs signed with ${algs.join(', ') || 'nothing'}, not ${dpop.alg}; pass dpop: { key, alg } with one of those`,
      );
    return {
      metadata,
      context: this.#context,
      now: this.#now,
      ...(tokenEndpointAuth === undefined ? {} : { tokenEndpointAuth }),
      ...(dpop === undefined ? {} : { dpop }),
    };
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
