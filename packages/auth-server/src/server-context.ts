// What every endpoint handler of the authorization server works with: its options, its records,
// the client lookup and the signing key.

import type { ClientResolver } from './client-id-document.ts';
import type { AuthorizationStore } from './authorization-store.ts';
import type { ResolvedOptions } from './options.ts';
import type { SigningKey } from './signing-key.ts';

/** The state the endpoint handlers share; one per authorization server. */
export interface ServerContext {
  options: ResolvedOptions;
  store: AuthorizationStore;
  resolveClient: ClientResolver;
  key: SigningKey;
}
