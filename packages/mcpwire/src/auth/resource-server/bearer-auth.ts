// The resource server in one call: `bearerAuth` verifies the access token of every request (JWT or
// introspection, DPoP-bound or not), refuses with the challenges the spec asks for, checks per-tool
// scopes, and serves the protected resource metadata. It plugs into mcpwire/http's handler as `auth`.

import type { Principal } from '../../protocol/principal.ts';
import { refusalResponse, type Refusal } from './challenge.ts';
import { DpopProofError, DpopReplayCache, verifyDpopProof, type DpopProofOptions } from './dpop-proof.ts';
import { createIntrospectionVerifier, type IntrospectionOptions } from './introspection-verifier.ts';
import { ASYMMETRIC_ALGORITHMS, createJwtVerifier, type JwtVerifierOptions } from './jwt-verifier.ts';
import { createMetadataHandler, resourceMetadataUrlOf, type MetadataHandler } from './resource-metadata.ts';
import { TokenRefusedError, type TokenVerifier, type VerifiedToken } from './token-verifier.ts';

/** How the resource server checks tokens. Give one of `jwksUri`, `introspection` or `verifier`. */
export interface BearerAuthOptions {
  /**
   * This server's canonical URI (AUTH-20), e.g. `https://mcp.example.com/mcp`: the metadata's
   * `resource` exactly, and the audience tokens must name unless `audience` says otherwise.
   */
  resource: string;
  /** The authorization server whose tokens are accepted (its `issuer`, exactly). */
  issuer: string;
  /** JWT access tokens: the issuer's key set (its metadata's `jwks_uri`). */
  jwksUri?: string | URL;
  /**
   * The least time between two key set fetches (ms; default 30 s): a token naming an unknown key
   * (rotation) refetches the set at most this often.
   */
  jwksCooldownMs?: number;
  /**
   * The JWT `typ` header values accepted; default `['at+jwt']` (RFC 9068), so an ID token is refused.
   * `'any'` turns the check off, for an authorization server whose access tokens carry no `typ`.
   */
  acceptedTypes?: readonly string[] | 'any';
  /** Opaque access tokens: RFC 7662 introspection at the issuer. */
  introspection?: Pick<IntrospectionOptions, 'endpoint' | 'clientId' | 'clientSecret' | 'cacheMs'>;
  /** A verifier of one's own, instead of the two above. */
  verifier?: TokenVerifier;
  /** The `aud` values accepted (exact strings); default `[resource]`. */
  audience?: string | readonly string[];
  /** Scopes every request needs: named in the 401 challenge (AUTH-8), 403 when a token lacks one. */
  scopes?: readonly string[];
  /** Scopes a `tools/call` of a tool needs besides `scopes`, by tool name (403 step-up, AUTH-26). */
  toolScopes?: Readonly<Record<string, readonly string[]>>;
  /** The metadata's `scopes_supported`; default `scopes` and every tool scope (none: omitted). */
  scopesSupported?: readonly string[];
  /** The metadata's `resource_name`. */
  resourceName?: string;
  /** DPoP-bound tokens: how proofs are checked, and whether plain bearer tokens are refused. */
  dpop?: DpopProofOptions & { isRequired?: boolean };
  /** More authorization servers to list in the metadata (their tokens need a `verifier` of one's own). */
  authorizationServers?: readonly string[];
  /** Seconds of clock skew allowed; default 30. */
  clockToleranceSeconds?: number;
  /** Told of every refusal, in words without the token (for logs). Default: nothing. */
  onRefusal?: (refusal: { status: number; error?: string; description: string }) => void;
  /** The verifier itself failed (key set or introspection endpoint unreachable: 503). Default: stderr. */
  onError?: (error: Error) => void;
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
}

/** One request of a POST body, as the HTTP handler passes it to `authorize`. */
export interface AuthorizedRequest {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The resource server: give it to `createHttpHandler`'s `auth` option, and chain `metadata` before
 * the handler (`chainHandlers(auth.metadata, handler)`). Stateless apart from caches; safe to share.
 */
export interface BearerAuth {
  /** Verifies the request's token: the principal (never holding the token, SEC-5), or the refusal. */
  authenticate(request: Request): Promise<Principal | Response>;
  /** Per-tool scopes: undefined when `principal` holds every scope the requests need, else 403. */
  authorize(principal: Principal, requests: readonly AuthorizedRequest[]): Response | undefined;
  /** The protected resource metadata endpoint (RFC 9728). */
  readonly metadata: MetadataHandler;
  /** Where the metadata is, as named in every challenge. */
  readonly resourceMetadataUrl: string;
}

/** Builds the resource server. Throws TypeError when no way to verify tokens is given. */
export function bearerAuth(options: BearerAuthOptions): BearerAuth {
  const now = options.now ?? Date.now;
  const verifier = verifierOf(options, now);
  const resourceMetadataUrl = resourceMetadataUrlOf(options.resource);
  const dpopAlgorithms = [...(options.dpop?.algorithms ?? ASYMMETRIC_ALGORITHMS)];
  const context = { resourceMetadataUrl, dpopAlgorithms };
  const baseScopes = [...(options.scopes ?? [])];
  const replay = new DpopReplayCache();
  const onError = options.onError ?? ((error) => console.error(`[mcpwire auth] ${error.message}`));
  const refuse = (refusal: Refusal): Response => {
    options.onRefusal?.({
      status: refusal.status,
      ...(refusal.error === undefined ? {} : { error: refusal.error }),
      description: refusal.description,
    });
    return refusalResponse(refusal, context);
  };
  const check = async (request: Request): Promise<VerifiedToken | Refusal> => {
    const presented = credentialsOf(request);
    if ('status' in presented) return { ...presented, scopes: baseScopes };
    let token: VerifiedToken;
    try {
      token = await verifier.verify(presented.token);
    } catch (error) {
      if (error instanceof TokenRefusedError)
        return { status: 401, error: 'invalid_token', description: error.message, scopes: baseScopes };
      onError(new Error('Access token verification failed', { cause: error }));
      return {
        status: 503,
        description: 'The access token could not be verified; try again later',
        scopes: [],
      };
    }
    const binding = await checkBinding(request, presented, token, { ...options.dpop, replay, now });
    if (binding) return { ...binding, scopes: baseScopes };
    return token;
  };
  const metadata = createMetadataHandler({
    resource: options.resource,
    authorization_servers: [options.issuer, ...(options.authorizationServers ?? [])],
    bearer_methods_supported: ['header'],
    ...scopesSupportedOf(options),
    ...(options.resourceName === undefined ? {} : { resource_name: options.resourceName }),
    dpop_signing_alg_values_supported: dpopAlgorithms,
    ...(options.dpop?.isRequired ? { dpop_bound_access_tokens_required: true } : {}),
  });
  return {
    resourceMetadataUrl,
    metadata,
    async authenticate(request) {
      const outcome = await check(request);
      if ('status' in outcome) return refuse(outcome);
      const missing = baseScopes.filter((scope) => !outcome.scopes.includes(scope));
      if (missing.length > 0) return refuse(insufficient(outcome.scopes, baseScopes, missing));
      return principalOf(outcome);
    },
    authorize(principal, requests) {
      const needed = requests.flatMap((request) => scopesForRequest(request, options.toolScopes));
      const granted = principal.scopes ?? [];
      const missing = [...new Set(needed)].filter((scope) => !granted.includes(scope));
      if (missing.length === 0) return undefined;
      return refuse(insufficient(granted, [...baseScopes, ...needed], missing));
    },
  };
}

function verifierOf(options: BearerAuthOptions, now: () => number): TokenVerifier {
  if (options.verifier) return options.verifier;
  const audience = options.audience ?? options.resource;
  const clockToleranceSeconds = options.clockToleranceSeconds ?? 30;
  if (options.jwksUri !== undefined) {
    const jwt: JwtVerifierOptions = { issuer: options.issuer, audience, jwksUri: options.jwksUri };
    if (options.jwksCooldownMs !== undefined) jwt.jwksCooldownMs = options.jwksCooldownMs;
    if (options.acceptedTypes !== undefined) jwt.acceptedTypes = options.acceptedTypes;
    return createJwtVerifier({ ...jwt, clockToleranceSeconds, now });
  }
  if (options.introspection !== undefined) {
    const { issuer } = options;
    return createIntrospectionVerifier({
      ...options.introspection,
      audience,
      issuer,
      clockToleranceSeconds,
      now,
    });
  }
  throw new TypeError('bearerAuth needs jwksUri, introspection or verifier to check access tokens');
}

/** The credentials of the request, or why they are unusable (AUTH-21: header only, one scheme). */
function credentialsOf(
  request: Request,
): { scheme: 'bearer' | 'dpop'; token: string } | Omit<Refusal, 'scopes'> {
  if (new URL(request.url).searchParams.has('access_token')) {
    const description = 'Access tokens go in the Authorization header, never in the query string';
    return { status: 400, error: 'invalid_request', description };
  }
  const header = request.headers.get('authorization');
  if (header === null) return { status: 401, description: 'This endpoint needs an access token' };
  const match = /^(Bearer|DPoP) ([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  if (match === null) {
    const description = 'The Authorization header must be "Bearer <token>" or "DPoP <token>"';
    return { status: 400, error: 'invalid_request', description };
  }
  return { scheme: match[1]!.toLowerCase() as 'bearer' | 'dpop', token: match[2]! };
}

/**
 * RFC 9449 §7: a token bound to a key (`cnf.jkt`) is accepted only as `DPoP` with a valid proof by that
 * key; a `DPoP` presentation needs a bound token. Undefined when the presentation holds.
 */
async function checkBinding(
  request: Request,
  presented: { scheme: 'bearer' | 'dpop'; token: string },
  token: VerifiedToken,
  settings: DpopProofOptions & { isRequired?: boolean; replay: DpopReplayCache; now: () => number },
): Promise<Omit<Refusal, 'scopes'> | undefined> {
  const jkt = token.boundKeyThumbprint;
  if (presented.scheme === 'bearer') {
    if (jkt !== undefined) {
      const description =
        'The access token is bound to a DPoP key: send it as "DPoP <token>" with a DPoP proof';
      return { status: 401, error: 'invalid_token', description };
    }
    if (settings.isRequired) {
      const description = 'This server accepts DPoP-bound access tokens only';
      return { status: 401, error: 'invalid_token', description, scheme: 'DPoP' };
    }
    return undefined;
  }
  if (jkt === undefined) {
    return {
      status: 401,
      error: 'invalid_token',
      description: 'The access token is not DPoP-bound: send it as Bearer',
    };
  }
  const proofs = request.headers.get('dpop');
  if (proofs === null || proofs.includes(',')) {
    const description = 'A DPoP-bound token needs exactly one DPoP proof header';
    return { status: 401, error: 'invalid_dpop_proof', description, scheme: 'DPoP' };
  }
  const url = new URL(request.url);
  try {
    await verifyDpopProof(
      proofs,
      {
        method: request.method,
        url: url.href,
        accessToken: presented.token,
        boundKeyThumbprint: jkt,
        nowMs: settings.now(),
      },
      settings,
    );
  } catch (error) {
    if (!(error instanceof DpopProofError)) throw error;
    return { status: 401, error: 'invalid_dpop_proof', description: error.message, scheme: 'DPoP' };
  }
  return undefined;
}

/** The scopes `request` needs beyond the base ones: a tool's, for `tools/call`. */
function scopesForRequest(
  request: AuthorizedRequest,
  toolScopes: BearerAuthOptions['toolScopes'],
): readonly string[] {
  if (request.method !== 'tools/call' || toolScopes === undefined) return [];
  const name = request.params?.name;
  return typeof name === 'string' && Object.hasOwn(toolScopes, name) ? toolScopes[name]! : [];
}

/**
 * 403 `insufficient_scope` (AUTH-26): the challenge names what the request needs plus what the token
 * already has, so a client stepping up keeps its grants; `offline_access` is never challenged
 * (S26-AUTH-7).
 */
function insufficient(
  granted: readonly string[],
  needed: readonly string[],
  missing: readonly string[],
): Refusal {
  const scopes = [...new Set([...granted, ...needed])].filter((scope) => scope !== 'offline_access');
  const description = `This request needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(' ')}`;
  return { status: 403, error: 'insufficient_scope', description, scopes };
}

function scopesSupportedOf(options: BearerAuthOptions): { scopes_supported?: string[] } {
  const all = options.scopesSupported ?? [
    ...(options.scopes ?? []),
    ...Object.values(options.toolScopes ?? {}).flat(),
  ];
  const unique = [...new Set(all)];
  return unique.length === 0 ? {} : { scopes_supported: unique };
}

/** What a handler sees: the verified facts, never the token, nor the key binding's bookkeeping. */
function principalOf(token: VerifiedToken): Principal {
  const { boundKeyThumbprint: _binding, ...principal } = token;
  return principal;
}
