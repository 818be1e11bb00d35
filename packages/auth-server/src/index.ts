// Public entry of `@mcpwire/auth-server`: a development OAuth 2.1 authorization server for MCP
// (RFC 8414 metadata, authorization code with PKCE S256, Client ID Metadata Documents and dynamic
// registration, rotating refresh tokens, a consent page, JWT access tokens bound to a resource).

export {
  createAuthorizationServer,
  type AuthorizationServer,
  type ListeningAuthorizationServer,
  type ListenOptions,
} from './authorization-server.ts';
export type { AuthorizationServerOptions, StaticClient } from './options.ts';
export type { TokenEndpointAuthMethod } from './records.ts';
