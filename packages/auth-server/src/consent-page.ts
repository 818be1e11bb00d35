// The consent page: a plain HTML form that names the client, shows the redirect URI's host and the
// scopes and resource asked for (SEC-1), says that this server is for development, and posts approve
// or deny. It cannot be framed, and it carries an anti-CSRF value also set as a cookie.

import type { ClientRecord, PendingConsent } from './records.ts';

/** The cookie that carries the consent form's anti-CSRF value. */
export const CONSENT_COOKIE = 'mcpwire_consent';

/** Headers of every HTML page: no caching, no framing (SEC-1), nothing loaded from elsewhere. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE =
  'body{font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}' +
  '.dev{background:#fff3cd;border:1px solid #e0c36c;padding:.6rem .8rem;border-radius:4px}' +
  'dt{font-weight:600;margin-top:.6rem}dd{margin:0;word-break:break-all}button{font-size:1rem;margin-right:.6rem;padding:.4rem 1rem}';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body><p class="dev"><strong>Development authorization server.</strong> For local development and tests only; do not use it in production.</p>
${body}
</body></html>
`;
}

/** The consent page for `pending`, posting to `action`. */
export function renderConsentPage(
  pending: PendingConsent,
  client: ClientRecord,
  action: string,
  subject: string,
): string {
  const { grant } = pending;
  const redirectHost = new URL(grant.redirectUri).host || grant.redirectUri;
  const name = client.clientName ?? client.clientId;
  const scopes = grant.scopes.length === 0 ? '(none)' : grant.scopes.join(' ');
  return page(
    `Authorize ${name}`,
    `<h1>Authorize ${escapeHtml(name)}?</h1>
<dl>
<dt>Client</dt><dd>${escapeHtml(name)} (<code>${escapeHtml(client.clientId)}</code>)</dd>
<dt>Redirects to</dt><dd><strong>${escapeHtml(redirectHost)}</strong> (<code>${escapeHtml(grant.redirectUri)}</code>)</dd>
<dt>Resource</dt><dd><code>${escapeHtml(grant.resource)}</code></dd>
<dt>Scopes</dt><dd><code>${escapeHtml(scopes)}</code></dd>
</dl>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="request" value="${escapeHtml(pending.id)}">
<input type="hidden" name="csrf" value="${escapeHtml(pending.csrf)}">
<p><label>Sign in as <input name="subject" value="${escapeHtml(subject)}" required></label></p>
<p><button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny">Deny</button></p>
</form>`,
  );
}

/** A page for an authorization request that cannot be redirected back (bad client or redirect URI). */
export function renderErrorPage(error: string, description: string): string {
  return page(
    'Authorization error',
    `<h1>Authorization error</h1>\n<p><code>${escapeHtml(error)}</code>: ${escapeHtml(description)}</p>`,
  );
}
