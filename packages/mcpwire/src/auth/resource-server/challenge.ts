// The resource server's refusals (RFC 6750 §3, RFC 9728 §5.1, RFC 9449 §7.1): 401 with a Bearer
// challenge naming the protected resource metadata and the scope needed (AUTH-6, AUTH-8, AUTH-25), 403
// `insufficient_scope` naming the scopes to step up to (AUTH-26), 400 for a malformed request.

/** What a refusal says. Descriptions are plain words: never a token. */
export interface Refusal {
  status: 400 | 401 | 403 | 503;
  /** The OAuth error code; absent on the first 401 of a request that carried no credentials. */
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope' | 'invalid_dpop_proof';
  description: string;
  /** The scopes to name in the challenge (space-separated when sent). */
  scopes: readonly string[];
  /** The challenge's scheme: `DPoP` for a failed proof, else `Bearer`. */
  scheme?: 'Bearer' | 'DPoP';
}

/** What every challenge of one resource carries. */
export interface ChallengeContext {
  resourceMetadataUrl: string;
  /** Algorithms named in a DPoP challenge's `algs` (RFC 9449 §7.1). */
  dpopAlgorithms: readonly string[];
}

/** The `WWW-Authenticate` value of `refusal`. */
export function challengeOf(refusal: Refusal, context: ChallengeContext): string {
  const params: [string, string][] = [];
  if (refusal.error !== undefined) {
    params.push(['error', refusal.error], ['error_description', refusal.description]);
  }
  if (refusal.scopes.length > 0) params.push(['scope', refusal.scopes.join(' ')]);
  params.push(['resource_metadata', context.resourceMetadataUrl]);
  if (refusal.scheme === 'DPoP') params.push(['algs', context.dpopAlgorithms.join(' ')]);
  return `${refusal.scheme ?? 'Bearer'} ${params.map(([name, value]) => `${name}="${quoted(value)}"`).join(', ')}`;
}

/** The response of `refusal`: its status, the challenge (except for 503), an OAuth error body. */
export function refusalResponse(refusal: Refusal, context: ChallengeContext): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (refusal.status !== 503) headers['www-authenticate'] = challengeOf(refusal, context);
  const body = { error: refusal.error ?? 'unauthorized', error_description: refusal.description };
  return new Response(JSON.stringify(body), { status: refusal.status, headers });
}

/** A quoted-string's content (RFC 9110 §5.6.4): backslash and double quote escaped, controls and non-ASCII dropped. */
function quoted(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code > 0x7e) continue;
    out += char === '"' || char === '\\' ? `\\${char}` : char;
  }
  return out;
}
