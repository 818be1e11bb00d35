// The authorization endpoint (GET, OAuth 2.1 §4.1) and the consent form's answer (POST): a valid
// request shows the consent page (or is approved at once with auto-approval); the answer redirects
// back with `code`, `state` and `iss` (RFC 9207), or with `error=access_denied`.

import { randomBytes } from 'node:crypto';
import { checkAuthorizationRequest, UnredirectableError } from './authorization-request.ts';
import { CONSENT_COOKIE, PAGE_HEADERS, renderConsentPage, renderErrorPage } from './consent-page.ts';
import { CODE_TTL_MS, CONSENT_TTL_MS } from './options.ts';
import type { OAuthError } from './oauth-error.ts';
import type { AuthorizationGrant, PendingConsent } from './records.ts';
import type { ServerContext } from './server-context.ts';

/** Handles `GET <issuer>/authorize`. `consentAction` is where the consent form posts. */
export async function handleAuthorize(
  request: Request,
  context: ServerContext,
  consentAction: string,
): Promise<Response> {
  const params = new URL(request.url).searchParams;
  let checked;
  try {
    checked = await checkAuthorizationRequest(params, context);
  } catch (error) {
    if (error instanceof UnredirectableError) return errorPage(error);
    throw error;
  }
  if ('error' in checked)
    return redirectWithError(checked.redirectUri, checked.error, checked.state, context.options.issuer);
  if (context.options.shouldAutoApprove)
    return redirectWithCode(checked.grant, context.options.subject, context);
  const pending: PendingConsent = {
    id: randomBytes(16).toString('base64url'),
    csrf: randomBytes(24).toString('base64url'),
    grant: checked.grant,
    expiresAt: context.options.now() + CONSENT_TTL_MS,
  };
  context.store.putPending(pending);
  const html = renderConsentPage(pending, checked.client, consentAction, context.options.subject);
  return new Response(html, {
    status: 200,
    headers: { ...PAGE_HEADERS, 'set-cookie': consentCookie(pending, consentAction) },
  });
}

/** Handles the consent form's `POST`: approve or deny one pending request, once. */
export async function handleConsent(request: Request, context: ServerContext): Promise<Response> {
  const form = new URLSearchParams(await request.text());
  const pending = context.store.takePending(form.get('request') ?? '');
  if (pending === undefined || pending.expiresAt <= context.options.now())
    return errorPage({
      error: 'invalid_request',
      message: 'this consent page has expired or was already answered; start the authorization again',
    });
  const csrf = form.get('csrf');
  if (csrf !== pending.csrf || cookieOf(request, `${CONSENT_COOKIE}_${pending.id}`) !== csrf)
    return errorPage({
      error: 'invalid_request',
      message: 'the consent form did not come from this page (CSRF check failed)',
    });
  const { grant } = pending;
  if (form.get('decision') !== 'approve')
    return redirectWithError(
      grant.redirectUri,
      { error: 'access_denied', message: 'the user denied the request' },
      grant.state,
      context.options.issuer,
    );
  const subject = (form.get('subject') ?? '').trim() || context.options.subject;
  return redirectWithCode(grant, subject, context);
}

function redirectWithCode(grant: AuthorizationGrant, subject: string, context: ServerContext): Response {
  const code = randomBytes(32).toString('base64url');
  context.store.putCode(code, {
    grant,
    subject,
    expiresAt: context.options.now() + CODE_TTL_MS,
    isUsed: false,
  });
  const location = new URL(grant.redirectUri);
  location.searchParams.set('code', code);
  if (grant.state !== undefined) location.searchParams.set('state', grant.state);
  location.searchParams.set('iss', context.options.issuer);
  return redirect(location);
}

/** RFC 6749 §4.1.2.1 with RFC 9207's `iss`: the error goes back to the client in the redirect's query. */
function redirectWithError(
  redirectUri: string,
  error: Pick<OAuthError, 'error' | 'message'>,
  state: string | undefined,
  issuer: string,
): Response {
  const location = new URL(redirectUri);
  location.searchParams.set('error', error.error);
  location.searchParams.set('error_description', error.message);
  if (state !== undefined) location.searchParams.set('state', state);
  location.searchParams.set('iss', issuer);
  return redirect(location);
}

/** 303 so a browser follows a POSTed form with a GET; the query carries the code, never cached. */
function redirect(location: URL): Response {
  return new Response(null, {
    status: 303,
    headers: { location: location.href, 'cache-control': 'no-store' },
  });
}

function errorPage(error: Pick<OAuthError, 'error' | 'message'>): Response {
  return new Response(renderErrorPage(error.error, error.message), {
    status: 400,
    headers: { ...PAGE_HEADERS },
  });
}

function consentCookie(pending: PendingConsent, consentAction: string): string {
  const path = new URL(consentAction).pathname;
  const secure = consentAction.startsWith('https:') ? '; Secure' : '';
  const maxAge = Math.floor(CONSENT_TTL_MS / 1000);
  return `${CONSENT_COOKIE}_${pending.id}=${pending.csrf}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure}`;
}

function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
