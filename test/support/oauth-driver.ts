// A small OAuth client for tests (the dev authorization server's, the CLI's, the interop suite's),
// over real HTTP with fetch and no browser: registers, starts an authorization with PKCE S256,
// reads and submits the consent form, and calls the token endpoint.

import { createHash, randomBytes } from 'node:crypto';

/** A PKCE verifier and its S256 challenge. */
export interface Pkce {
  verifier: string;
  challenge: string;
}

/** A fresh PKCE pair (RFC 7636). */
export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The metadata document of `issuer` (RFC 8414 well-known URL). */
export async function fetchMetadata(issuer: string): Promise<Record<string, string>> {
  const response = await fetch(`${issuer}/.well-known/oauth-authorization-server`);
  return (await response.json()) as Record<string, string>;
}

/** Registers a public client (RFC 7591) with `redirectUris`; resolves with the registration response. */
export async function registerClient(
  issuer: string,
  body: Record<string, unknown>,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${issuer}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** The authorization URL for `params` (response_type=code added). */
export function authorizationUrl(issuer: string, params: Record<string, string>): string {
  return `${issuer}/authorize?${new URLSearchParams({ response_type: 'code', ...params }).toString()}`;
}

/** A consent page as the browser would get it: its form fields and the cookie it set. */
export interface ConsentPage {
  status: number;
  html: string;
  action: string;
  fields: Record<string, string>;
  cookie: string;
}

/** GETs the authorization URL (redirects not followed). */
export async function openAuthorization(url: string): Promise<Response> {
  return fetch(url, { redirect: 'manual' });
}

/** Reads the consent form of `response`. */
export async function readConsentPage(response: Response): Promise<ConsentPage> {
  const html = await response.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[name!] = value!;
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { status: response.status, html, action: action.replace(/&#38;/g, '&'), fields, cookie };
}

/** Submits the consent form with `decision`; resolves with the redirect's Location, or the response when none. */
export async function submitConsent(
  page: ConsentPage,
  decision: 'approve' | 'deny',
  options: { cookie?: string; subject?: string } = {},
): Promise<Response> {
  return fetch(page.action, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: options.cookie ?? page.cookie },
    body: new URLSearchParams({ ...page.fields, decision, subject: options.subject ?? 'alice' }).toString(),
  });
}

/** POSTs a form to the token endpoint; resolves with the status, headers and JSON body. */
export async function tokenRequest(
  issuer: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    json: (await response.json()) as Record<string, unknown>,
  };
}

/** The whole front channel: authorize, consent (approve, as `subject`, default alice), and the redirect's URL. */
export async function authorizeWithConsent(url: string, options: { subject?: string } = {}): Promise<URL> {
  const page = await readConsentPage(await openAuthorization(url));
  if (page.status !== 200) throw new Error(`consent page: HTTP ${page.status}: ${page.html}`);
  const answer = await submitConsent(page, 'approve', options);
  const location = answer.headers.get('location');
  if (location === null)
    throw new Error(`no redirect after consent: HTTP ${answer.status}: ${await answer.text()}`);
  await answer.body?.cancel();
  return new URL(location);
}

/** A public client registered at `issuer` with `redirectUri` and the refresh_token grant; its client_id. */
export async function registerPublicClient(issuer: string, redirectUri: string): Promise<string> {
  const { status, json } = await registerClient(issuer, {
    client_name: 'Test Client',
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
  });
  if (status !== 201) throw new Error(`registration failed: ${JSON.stringify(json)}`);
  return json.client_id as string;
}

/** On an auto-approving server: authorize `clientId` for `resource` and resolve with the code and its PKCE. */
export async function codeFor(
  issuer: string,
  clientId: string,
  params: { redirectUri: string; resource: string; scope?: string },
): Promise<{ code: string; pkce: Pkce }> {
  const pkce = createPkce();
  const response = await openAuthorization(
    authorizationUrl(issuer, {
      client_id: clientId,
      redirect_uri: params.redirectUri,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      resource: params.resource,
      ...(params.scope === undefined ? {} : { scope: params.scope }),
    }),
  );
  const location = response.headers.get('location');
  const code = location === null ? null : new URL(location).searchParams.get('code');
  if (code === null)
    throw new Error(`no code: HTTP ${response.status} ${location ?? (await response.text())}`);
  return { code, pkce };
}
