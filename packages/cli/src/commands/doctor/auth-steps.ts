// `mcpwire doctor --auth`: the OAuth flow as doctor steps. Each HTTP exchange of the flow becomes a
// line as it happens (the 401 challenge, protected resource metadata, authorization server metadata,
// registration, the authorization URL and its redirect, the token request, the retried call); a flow
// that fails is named at its step with the cause and what to change.

import type { WireSink } from '../../wire/recorder.ts';
import type { EventEntry, HttpRequestEntry, HttpResponseEntry } from '../../wire/transcript.ts';
import type { Checklist } from './checklist.ts';

/** The doctor step of each step of mcpwire/auth's OAuthError. */
const STEP_OF_OAUTH: Record<string, string> = {
  'protected-resource-discovery': 'prm',
  'authorization-server-discovery': 'as-metadata',
  registration: 'register',
  authorization: 'authorize',
  'authorization-response': 'authorize',
  token: 'token',
  'url-policy': 'url-policy',
};

/** What to change when a step fails. */
const HINT_OF_STEP: Record<string, string> = {
  prm: 'serve RFC 9728 metadata at the path-inserted well-known URL and name it in the 401 WWW-Authenticate resource_metadata (AUTH-4, AUTH-6)',
  'as-metadata':
    'publish RFC 8414 metadata whose "issuer" is exactly the URL the resource metadata lists, with S256 in code_challenge_methods_supported (AUTH-11, AUTH-31)',
  register:
    'enable dynamic registration (registration_endpoint) or Client ID Metadata Documents, or pass a client registered beforehand with --client-id',
  authorize:
    'finish the consent in the browser (raise --auth-timeout for more time); the redirect must carry code, state and iss',
  token: 'the authorization server refused the token request: see its error above, and its logs',
  'url-policy':
    'the server names metadata on a private or loopback address; pass --allow-private-auth if that is intended',
  retry:
    'the server refused the token it asked for: check the audience (resource) and scopes it expects (AUTH-22)',
};

/** The exchanges of the flow, for the verdict after it. */
export interface AuthWalk extends WireSink {
  /** Whether any protected resource metadata document was found. */
  readonly isPrmFound: boolean;
  /** The PRM URLs that answered something other than 200. */
  readonly missingPrm: readonly string[];
  /** For CliAuthOptions.onAuthorization: the authorization URL and the redirect as steps. */
  onAuthorization(event: { url: string } | { redirect: URL }): void;
}

/** Prints the flow's exchanges to `list` as they complete; `endpoint` is the MCP server's URL. */
export function createAuthWalk(list: Checklist, endpoint: string): AuthWalk {
  const requests = new Map<number, HttpRequestEntry>();
  const missingPrm: string[] = [];
  let isPrmFound = false;
  let isChallenged = false;
  let isRetried = false;
  const mcp = new URL(endpoint);
  const isEndpoint = (url: string): boolean => {
    const parsed = new URL(url);
    return parsed.origin === mcp.origin && parsed.pathname === mcp.pathname;
  };
  const step = (request: HttpRequestEntry, response: HttpResponseEntry): void => {
    const line = `${request.method} ${request.url.split('?')[0]!} ⇒ ${response.status}`;
    const path = new URL(request.url).pathname;
    const isFound = response.status >= 200 && response.status < 300;
    if (isEndpoint(request.url)) {
      if (response.status === 401 && !isChallenged) {
        isChallenged = true;
        const challenge = response.headers['www-authenticate'] ?? '';
        if (/resource_metadata=/.test(challenge))
          list.ok('challenge', `${line}, WWW-Authenticate: ${challenge}`);
        else
          list.add({
            step: 'challenge',
            verdict: 'warn',
            detail: `${line}; its WWW-Authenticate (${challenge || 'none'}) names no resource_metadata`,
            hint: 'name the metadata in resource_metadata (AUTH-6a); clients then fall back to the well-known URLs (AUTH-7)',
          });
      } else if (isFound && isChallenged && !isRetried) {
        isRetried = true;
        list.ok('retry', `${line}: the request carried the new token and was accepted`);
      }
      return;
    }
    if (path.includes('/.well-known/oauth-protected-resource')) {
      if (isFound) {
        isPrmFound = true;
        list.ok(
          'prm',
          `${line}: ${summary(response.body, ['resource', 'authorization_servers', 'scopes_supported'])}`,
        );
      } else {
        missingPrm.push(request.url);
        list.add({ step: 'prm', verdict: 'skip', detail: `${line}: not here, the next location is tried` });
      }
    } else if (
      path.includes('/.well-known/oauth-authorization-server') ||
      path.includes('/.well-known/openid-configuration')
    ) {
      if (isFound)
        list.ok(
          'as-metadata',
          `${line}: ${summary(response.body, ['issuer', 'code_challenge_methods_supported', 'registration_endpoint'])}`,
        );
      else
        list.add({
          step: 'as-metadata',
          verdict: 'skip',
          detail: `${line}: not here, the next location is tried`,
        });
    } else if (request.method === 'POST' && request.body?.includes('redirect_uris') === true) {
      if (isFound)
        list.ok(
          'register',
          `${line}: ${summary(response.body, ['client_id', 'token_endpoint_auth_method'])}`,
        );
    } else if (request.method === 'POST' && request.body?.includes('grant_type=') === true) {
      const grant = new URLSearchParams(request.body).get('grant_type');
      if (isFound)
        list.ok(
          'token',
          `${line} (${grant}): ${summary(response.body, ['token_type', 'expires_in', 'scope', 'access_token', 'refresh_token'])}`,
        );
    }
  };
  return {
    get isPrmFound() {
      return isPrmFound;
    },
    missingPrm,
    entry(entry: EventEntry) {
      if (entry.type === 'http-request') requests.set(entry.exchange, entry);
      else if (entry.type === 'http-response') {
        const request = requests.get(entry.exchange);
        if (request !== undefined) step(request, entry);
      }
    },
    onAuthorization(event) {
      if ('url' in event) {
        const url = new URL(event.url);
        const query = url.searchParams;
        list.ok(
          'authorize',
          `open ${url.origin}${url.pathname} with client_id ${query.get('client_id')}, code_challenge_method ${query.get('code_challenge_method')}, resource ${query.get('resource')}${query.has('scope') ? `, scope ${query.get('scope')}` : ''} (the full URL is on stderr)`,
        );
      } else {
        const query = event.redirect.searchParams;
        const what = query.has('error')
          ? `error ${query.get('error')}`
          : `a code${query.has('iss') ? `, iss ${query.get('iss')}` : ''}`;
        list.ok(
          'authorize',
          `the authorization server redirected back to ${event.redirect.origin}${event.redirect.pathname} with ${what}`,
        );
      }
    },
  };
}

/**
 * Adds the failed step for `error` (a flow failure: an OAuthError along its causes) and resolves true,
 * or false when it was no OAuth failure. No protected resource metadata anywhere fails at `prm`
 * whatever came after: since 2025-06-18 a server must publish it (AUTH-4, AUTH-6).
 */
export function explainAuthFailure(error: unknown, walk: AuthWalk, list: Checklist): boolean {
  const oauth = oauthErrorOf(error);
  // The library's message is the same for every network failure (it must not map ports for a
  // hostile server); the doctor's user is the one who needs the reason, kept in the causes.
  const message =
    oauth === undefined
      ? error instanceof Error
        ? error.message
        : String(error)
      : `${oauth.message}${causesOf(oauth)}`;
  if (!walk.isPrmFound && walk.missingPrm.length > 0) {
    list.fail(
      'prm',
      `no protected resource metadata: the 401 named no resource_metadata and ${walk.missingPrm.join(', ')} answered no document (then: ${message})`,
      HINT_OF_STEP.prm!,
    );
    return true;
  }
  if (oauth === undefined) return false;
  // A connection refused for its resolved address (mcpwire/auth/node) is the URL policy's refusal.
  const step = hasPrivateAddressCause(oauth) ? 'url-policy' : (STEP_OF_OAUTH[oauth.step] ?? oauth.step);
  list.fail(step, message, HINT_OF_STEP[step] ?? 'run with --trace to see every exchange');
  return true;
}

/** The doctor's auth steps that follow `failed`, for the skip list. */
export function authStepsAfter(list: Checklist): string[] {
  const order = ['challenge', 'prm', 'as-metadata', 'register', 'authorize', 'token', 'retry'];
  const failed = list.failed?.step;
  const at = failed === undefined ? -1 : order.indexOf(failed);
  return at < 0 ? [] : order.slice(at + 1);
}

/** `: <cause>: <its cause>` for up to three causes of `error`, or '' when it has none. */
function causesOf(error: Error): string {
  let text = '';
  for (let current = error.cause, depth = 0; current instanceof Error && depth < 3; depth++) {
    text += `: ${current.message}`;
    current = current.cause;
  }
  return text;
}

function hasPrivateAddressCause(error: Error): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    if ((current as { code?: unknown }).code === 'MCPWIRE_PRIVATE_ADDRESS') return true;
    current = current.cause;
  }
  return false;
}

function oauthErrorOf(error: unknown): (Error & { step: string }) | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    if (current.name === 'OAuthError' && typeof (current as { step?: unknown }).step === 'string')
      return current as Error & { step: string };
    current = current.cause;
  }
  return undefined;
}

/** The named fields of a JSON body (already redacted), as `name=value` pairs. */
function summary(body: string | undefined, fields: readonly string[]): string {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(body ?? '') as Record<string, unknown>;
  } catch {
    return body === undefined || body === '' ? 'no body' : body.slice(0, 200);
  }
  const pairs = fields
    .filter((field) => field in value)
    .map((field) => `${field}=${JSON.stringify(value[field])}`);
  return pairs.join(', ') || 'a JSON document';
}
