// The resource server side of mcpwire/auth: bearer-token verification, challenges, per-tool scopes
// and the protected resource metadata endpoint, wrapping mcpwire/http's handler through its `auth` option.

export {
  bearerAuth,
  type AuthorizedRequest,
  type BearerAuth,
  type BearerAuthOptions,
} from './bearer-auth.ts';
export { createJwtVerifier, type JwtVerifierOptions } from './jwt-verifier.ts';
export { createIntrospectionVerifier, type IntrospectionOptions } from './introspection-verifier.ts';
export { DpopProofError, type DpopProofOptions } from './dpop-proof.ts';
export {
  createMetadataHandler,
  resourceMetadataUrlOf,
  type MetadataHandler,
  type ProtectedResourceDocument,
} from './resource-metadata.ts';
export { TokenRefusedError, type TokenVerifier, type VerifiedToken } from './token-verifier.ts';
