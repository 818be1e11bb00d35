// Parsing the `WWW-Authenticate` challenge of a 401/403 (RFC 6750 §3, RFC 9728 §5.1): the parameters
// the client acts on, from a Bearer (or DPoP) challenge.

/** The parameters of a Bearer challenge that drive the flow (AUTH-6, AUTH-8, AUTH-26). */
export interface BearerChallenge {
  /** `resource_metadata`: where the protected resource metadata is (RFC 9728 §5.1). */
  resourceMetadata?: string;
  /** `scope`: what the current request needs, authoritative for it (AUTH-9). */
  scope?: string;
  /** `error`: `invalid_token`, `insufficient_scope`, ... */
  error?: string;
  errorDescription?: string;
}

const SCHEMES = new Set(['bearer', 'dpop']);

/**
 * Reads the first Bearer or DPoP challenge of a `WWW-Authenticate` value; an absent or unparsable
 * header, or one naming only other schemes, gives an empty challenge. Quoted strings may hold commas
 * and `\"` escapes (RFC 9110 §11.2).
 */
export function parseBearerChallenge(header: string | null): BearerChallenge {
  if (header === null) return {};
  const params = challengeParams(header);
  if (params === undefined) return {};
  const challenge: BearerChallenge = {};
  const set = (key: keyof BearerChallenge, name: string): void => {
    const value = params.get(name);
    if (value !== undefined && value !== '') challenge[key] = value;
  };
  set('resourceMetadata', 'resource_metadata');
  set('scope', 'scope');
  set('error', 'error');
  set('errorDescription', 'error_description');
  return challenge;
}

/** The auth-params of the first challenge whose scheme is Bearer or DPoP. */
function challengeParams(header: string): Map<string, string> | undefined {
  const token = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y;
  let at = 0;
  let params: Map<string, string> | undefined;
  let isWanted = false;
  while (at < header.length) {
    while (at < header.length && /[\s,]/.test(header[at]!)) at++;
    token.lastIndex = at;
    const name = token.exec(header)?.[0];
    if (name === undefined) return isWanted ? params : undefined;
    at += name.length;
    while (header[at] === ' ' || header[at] === '\t') at++;
    if (header[at] !== '=') {
      // A scheme name starts a new challenge.
      if (isWanted) return params;
      isWanted = SCHEMES.has(name.toLowerCase());
      params = new Map();
      continue;
    }
    at++;
    while (header[at] === ' ' || header[at] === '\t') at++;
    let value = '';
    if (header[at] === '"') {
      at++;
      while (at < header.length && header[at] !== '"') {
        if (header[at] === '\\') at++;
        value += header[at] ?? '';
        at++;
      }
      at++;
    } else {
      token.lastIndex = at;
      value = token.exec(header)?.[0] ?? '';
      at += value.length;
    }
    params?.set(name.toLowerCase(), value);
  }
  return isWanted ? params : undefined;
}
