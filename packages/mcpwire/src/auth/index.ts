// Public entry of `mcpwire/auth`: the OAuth 2.1 client as a fetch wrapper, its discovery steps, token
// storage and errors; and the resource server (`bearerAuth`) that protects mcpwire/http's handler.
// Speaks fetch/Request/Response only; no transport imports it.

export { createOAuthFetch } from './oauth-fetch.ts';
export {
  createOAuthAuthorization,
  type AuthorizationExchange,
  type OAuthAuthorization,
} from './oauth-authorization.ts';
export type {
  AuthorizationRequest,
  AuthorizeCallback,
  ConfiguredClient,
  OAuthClientOptions,
} from './oauth-options.ts';
export type {
  AssertionProvider,
  AssertionTarget,
  AuthorizationCodeGrant,
  ClientCredentialsGrant,
  IdentityAssertionGrant,
  JwtBearerGrant,
  OAuthGrant,
} from './grants.ts';
export type { IdentityProvider } from './token-exchange.ts';
export type {
  PrivateKeyJwtAuth,
  TokenEndpointAuth,
  TokenEndpointAuthMethod,
} from './client-authentication.ts';
export { DpopProver, type DpopKeyPair, type DpopOptions, type ProofTarget } from './dpop.ts';
export { OAuthError, type OAuthStep } from './errors.ts';
export type { FetchLike } from './fetch-like.ts';
export {
  discoverProtectedResource,
  protectedResourceMetadataUrls,
  type ProtectedResourceMetadata,
} from './protected-resource.ts';
export {
  authorizationServerMetadataUrls,
  discoverAuthorizationServer,
  type AuthorizationServerMetadata,
} from './authorization-server.ts';
export type { AuthFetchContext } from './metadata-fetch.ts';
export type { ClientMetadata, PreRegisteredClient } from './registration.ts';
export { parseBearerChallenge, type BearerChallenge } from './www-authenticate.ts';
export { selectScope, type ScopeInputs } from './scope.ts';
export {
  createMemoryTokenStore,
  type ClientCredentials,
  type IssuerRecord,
  type TokenStore,
  type Tokens,
} from './token-store.ts';
export { isLoopbackHost, isPrivateHost, type UrlPolicy } from './url-policy.ts';
export { readCappedText } from './capped-body.ts';
export { isIpAddress, specialRangeOf, type SpecialRange } from './ip-address.ts';
export {
  bearerAuth,
  createIntrospectionVerifier,
  createJwtVerifier,
  createMetadataHandler,
  DpopProofError,
  resourceMetadataUrlOf,
  TokenRefusedError,
  type AuthorizedRequest,
  type BearerAuth,
  type BearerAuthOptions,
  type DpopProofOptions,
  type IntrospectionOptions,
  type JwtVerifierOptions,
  type MetadataHandler,
  type ProtectedResourceDocument,
  type TokenVerifier,
  type VerifiedToken,
} from './resource-server/index.ts';
