// `mcpwire demo --http --auth`: the host's OAuth client over the demo's wire. The MCP requests go
// through the demo's HTTP wire (so the 401 and the retried call are shown beside the messages); the
// auth layer's own requests (metadata, registration, the auto-approved authorization, the token) are
// printed here, each named for its step, bodies shown with their credentials redacted.

import { createOAuthFetch, type FetchLike } from 'mcpwire/auth';
import type { DemoPrinter } from '../../terminal/demo-printer.ts';
import { Redactor } from '../../wire/redact.ts';

/** One request of the auth layer, as the checks read it. */
export interface AuthExchange {
  readonly step: AuthStep;
  readonly method: string;
  readonly url: string;
  readonly status: number;
  /** The redirect of the authorization request. */
  readonly location?: string;
}

/** What an auth request is for. */
export type AuthStep =
  | 'resource metadata'
  | 'authorization server metadata'
  | 'registration'
  | 'authorization'
  | 'token'
  | 'other';

/**
 * Never listened on: the demo's "browser" (an auto-approving authorization server) redirects here,
 * and the host reads the code from the redirect's Location itself.
 */
const REDIRECT_URI = 'http://127.0.0.1:8976/callback';

/**
 * The OAuth fetch of the demo host for `endpoint`: MCP requests through `mcpFetch` (the HTTP wire),
 * the auth layer's own printed and appended to `exchanges`. The authorization step follows the
 * authorization URL (the server approves at once) and takes the code from its redirect.
 */
export function createDemoOAuthFetch(
  endpoint: string,
  mcpFetch: FetchLike,
  printer: DemoPrinter,
  exchanges: AuthExchange[],
): FetchLike {
  const redactor = new Redactor();
  const mcp = new URL(endpoint);
  const authFetch: FetchLike = async (request) => {
    const step = stepOf(request);
    const sent = request.method === 'POST' ? await request.clone().text() : '';
    const response = await fetch(request);
    const location = response.headers.get('location') ?? undefined;
    exchanges.push({
      step,
      method: request.method,
      url: request.url,
      status: response.status,
      ...(location === undefined ? {} : { location }),
    });
    const url = new URL(request.url);
    printer.http(`HTTP ${request.method} ${url.origin}${url.pathname}  ⇒ ${response.status}  (${step})`);
    const type = request.headers.get('content-type') ?? '';
    if (sent !== '') printer.http(`  sent ${redactor.body(sent, type)}`);
    if (location !== undefined)
      printer.http(`  redirected to ${redactor.url(location).replace(/([?&]code=)[^&]+/, '$1[redacted]')}`);
    const text = await response.clone().text();
    if (text !== '' && step !== 'authorization')
      printer.http(`  received ${cut(redactor.body(text, response.headers.get('content-type') ?? ''))}`);
    return response;
  };
  return createOAuthFetch(endpoint, {
    fetch: (request) => {
      const url = new URL(request.url);
      return url.origin === mcp.origin && url.pathname === mcp.pathname
        ? mcpFetch(request)
        : authFetch(request);
    },
    allowPrivateNetwork: true,
    redirectUri: REDIRECT_URI,
    clientMetadata: { client_name: 'mcpwire demo host' },
    authorize: async ({ url }) => {
      printer.note(
        `the host opens the authorization URL; the development server approves at once (--auto-approve)`,
      );
      const answer = await authFetch(new Request(url, { redirect: 'manual' }));
      await answer.body?.cancel();
      const location = answer.headers.get('location');
      if (location === null)
        throw new Error(`the authorization request answered ${answer.status} without a redirect`);
      return location;
    },
  });
}

function stepOf(request: Request): AuthStep {
  const path = new URL(request.url).pathname;
  if (path.includes('/.well-known/oauth-protected-resource')) return 'resource metadata';
  if (
    path.includes('/.well-known/oauth-authorization-server') ||
    path.includes('/.well-known/openid-configuration')
  )
    return 'authorization server metadata';
  if (path.endsWith('/register')) return 'registration';
  if (path.endsWith('/authorize')) return 'authorization';
  if (path.endsWith('/token')) return 'token';
  return 'other';
}

/** A body on one line, at most 300 characters. */
function cut(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
