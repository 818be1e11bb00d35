// The OAuth options of the client commands as commander parses them (see target-options.ts), and
// their translation into the CliAuthOptions the connection uses.

import { UsageError } from '../exit-code.ts';
import type { CliAuthOptions } from './cli-oauth.ts';

/** What commander gives for the OAuth options. */
export interface AuthCommandOptions {
  /** False with --no-auth; true with doctor's --auth; undefined when doctor runs without it. */
  auth?: boolean;
  clientId?: string;
  clientSecret?: string;
  scope?: string;
  tokenStore?: string;
  /** Seconds. */
  authTimeout?: number;
  allowPrivateAuth?: boolean;
}

/**
 * The `auth` of openClient's options: none unless `auth` is true (--no-auth, or doctor without
 * --auth). Throws UsageError for a --client-secret without --client-id.
 */
export function authOf(options: AuthCommandOptions): { auth?: CliAuthOptions } {
  if (options.auth !== true) return {};
  if (options.clientSecret !== undefined && options.clientId === undefined)
    throw new UsageError(
      '--client-secret (or MCPWIRE_CLIENT_SECRET) needs --client-id: give the client it belongs to',
    );
  const auth: CliAuthOptions = { authTimeout: options.authTimeout ?? 300 };
  if (options.clientId !== undefined) auth.clientId = options.clientId;
  if (options.clientSecret !== undefined) auth.clientSecret = options.clientSecret;
  if (options.scope !== undefined) auth.scope = options.scope;
  if (options.tokenStore !== undefined) auth.tokenStore = options.tokenStore;
  if (options.allowPrivateAuth === true) auth.allowPrivateAuth = true;
  return { auth };
}
