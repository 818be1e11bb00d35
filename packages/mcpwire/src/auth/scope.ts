// Which scope to request (AUTH-18, AUTH-27, S26-AUTH-7, S26-AUTH-8).

/** What the scope choice is made from. */
export interface ScopeInputs {
  /** The challenge's `scope`: authoritative for the current request (AUTH-9). */
  challenged?: string;
  /** The protected resource's `scopes_supported`. */
  resourceScopes?: readonly string[];
  /** The authorization server's `scopes_supported`: `offline_access` is added only when listed there. */
  serverScopes?: readonly string[];
  /** On a step-up (403 insufficient_scope): the scope requested before, united with the challenge. */
  previous?: string;
  isOfflineAccessWanted: boolean;
}

/**
 * The `scope` parameter, or undefined to omit it: the challenge's scope (with `previous` on a step-up),
 * else all of the resource's `scopes_supported`, else none; then `offline_access` when wanted, listed
 * by the authorization server, and some other scope is requested. Tokens keep first-seen order.
 */
export function selectScope(inputs: ScopeInputs): string | undefined {
  const base = inputs.challenged ?? inputs.resourceScopes?.join(' ');
  const scopes = new Set(
    [inputs.previous, base]
      .filter((s) => s !== undefined)
      .join(' ')
      .split(' ')
      .filter((s) => s !== ''),
  );
  if (scopes.size === 0) return undefined;
  if (inputs.isOfflineAccessWanted && inputs.serverScopes?.includes('offline_access'))
    scopes.add('offline_access');
  return [...scopes].join(' ');
}
