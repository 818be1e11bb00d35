// GET of one metadata document under the URL policy: every redirect hop is checked (SEC-6), a 404 (or
// other 4xx) means "not here, try the next location", and anything else that is not JSON is an error.
// Bodies are read up to a cap, and no failure quotes what an unexpected answer said.

import { readCappedText } from './capped-body.ts';
import { OAuthError, type OAuthStep } from './errors.ts';
import type { FetchLike } from './fetch-like.ts';
import { checkUrl, type UrlPolicy } from './url-policy.ts';

/** How the auth layer's own requests are made. */
export interface AuthFetchContext {
  fetch: FetchLike;
  policy: UrlPolicy;
  /** The MCP server's origin: always allowed by the policy. */
  trustedOrigin: string;
}

const MAX_REDIRECTS = 5;
/** The largest metadata, registration or token response body read; past it the body is dropped. */
export const MAX_AUTH_BODY_BYTES = 256 * 1024;

/**
 * Fetches `url` as JSON. Resolves undefined when the server answers 4xx (the document is not there);
 * rejects with OAuthError for `step` on a refused URL, a network failure, a 5xx or a body that is not
 * a JSON object.
 */
export async function fetchMetadata(
  url: URL,
  context: AuthFetchContext,
  step: OAuthStep,
): Promise<Record<string, unknown> | undefined> {
  let target = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    checkUrl(target, context.policy, context.trustedOrigin);
    let response: Response;
    try {
      response = await context.fetch(
        new Request(target, { headers: { accept: 'application/json' }, redirect: 'manual' }),
      );
    } catch (error) {
      throw unreadable(target, step, error);
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      target = new URL(location, target);
      continue;
    }
    if (response.status >= 400 && response.status < 500) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw unreadable(target, step, new Error(`it answered ${response.status}, expected 200 with JSON`));
    }
    try {
      return await readJsonObject(response, `GET ${target.href}`, step);
    } catch (error) {
      throw unreadable(target, step, error);
    }
  }
  throw new OAuthError(step, `GET ${url.href}: more than ${MAX_REDIRECTS} redirects`);
}

/**
 * One message whether nothing listens, the connection timed out, the address was refused, or the
 * answer was an error or not a JSON object: the details (in `cause`) are for local logs, and the
 * message does not map the ports behind the URL for whoever chose it.
 */
function unreadable(url: URL, step: OAuthStep, cause: unknown): OAuthError {
  return new OAuthError(step, `GET ${url.href} failed: no metadata could be read from it`, { cause });
}

/**
 * The body of `response` as a JSON object, read up to {@link MAX_AUTH_BODY_BYTES}, or OAuthError for
 * `step` saying what came instead (never quoting it).
 */
export async function readJsonObject(
  response: Response,
  what: string,
  step: OAuthStep,
): Promise<Record<string, unknown>> {
  const text = await readCappedText(response, MAX_AUTH_BODY_BYTES);
  if (text === undefined)
    throw new OAuthError(
      step,
      `${what} answered ${response.status} with a body over ${MAX_AUTH_BODY_BYTES} bytes`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new OAuthError(step, `${what} answered ${response.status} with a body that is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new OAuthError(step, `${what} answered ${response.status} with JSON that is not an object`);
  return value as Record<string, unknown>;
}
