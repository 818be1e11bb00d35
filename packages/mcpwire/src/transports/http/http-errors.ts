// Local failures of the HTTP client transports: never sent on the wire, each with a stable `code`.

import type { JsonRpcErrorObject } from '../../jsonrpc/message.ts';

/** How much of a failed response's body an HttpError keeps. */
const BODY_EXCERPT_LENGTH = 1000;

/** What an HttpError reports about the exchange. */
export interface HttpErrorDetails {
  /** The HTTP method of the failed request (`POST`, `GET`, `DELETE`). */
  requestMethod: string;
  url: string;
  status: number;
  statusText?: string;
  /** The JSON-RPC method the request carried, if any. */
  method?: string;
  /** The response body as text, possibly cut short. */
  body: string;
  headers: Headers;
  /** The JSON-RPC error the body held, when it was an error response (with or without an id). */
  error?: JsonRpcErrorObject;
  cause?: unknown;
}

/**
 * The server answered with a status this transport cannot turn into a message: 401/403
 * (authorization; read `headers.get('www-authenticate')`), 5xx, or a 4xx whose body is not a
 * JSON-RPC error for the request. `status` lets callers tell these apart. `isRefusal` is the
 * transport contract's refusal (see `Channel.send`): true for 400/404/405, the server refusing the
 * request as such, which is how a handshake-era server answers a stateless-era probe (2026-07-28
 * checklist section 3.3); false for authorization (401/403) and outages (5xx), never an era signal.
 */
export class HttpError extends Error {
  readonly code = 'HTTP_ERROR';
  readonly status: number;
  readonly requestMethod: string;
  readonly url: string;
  readonly method: string | undefined;
  /** The body as text, at most 1000 characters. */
  readonly body: string;
  readonly headers: Headers;
  readonly error: JsonRpcErrorObject | undefined;

  constructor(details: HttpErrorDetails) {
    const what = details.method === undefined ? '' : ` for "${details.method}"`;
    const statusText = details.statusText ? ` ${details.statusText}` : '';
    const body = details.body.slice(0, BODY_EXCERPT_LENGTH);
    const excerpt = body.trim() === '' ? '' : `: ${body.trim().slice(0, 200)}`;
    super(
      `${details.requestMethod} ${details.url} answered ${details.status}${statusText}${what}${excerpt}`,
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.name = 'HttpError';
    this.status = details.status;
    this.requestMethod = details.requestMethod;
    this.url = details.url;
    this.method = details.method;
    this.body = body;
    this.headers = details.headers;
    this.error = details.error;
  }

  /** True when the server refused the request as such (400, 404, 405); see the class. */
  get isRefusal(): boolean {
    return REFUSAL_STATUSES.includes(this.status);
  }
}

/** The statuses by which a server refuses a request it does not take (400, 404, 405). */
const REFUSAL_STATUSES: readonly number[] = [400, 404, 405];

/**
 * The request could not be made or its response not read (DNS, refused connection, reset, ...).
 * The message names the request and what the network said, read from the error's causes
 * (`POST http://127.0.0.1:9/mcp failed: connect ECONNREFUSED 127.0.0.1:9`); `cause` is the
 * error fetch rejected with, unchanged.
 */
/**
 * The server answered with a redirect to another origin (or too many redirects): the client does not
 * follow it, for the request would carry its body and the caller's headers (`Authorization`,
 * `X-Api-Key`, ...) to a server the caller never named. Redirects within the origin are followed.
 */
export class CrossOriginRedirectError extends Error {
  readonly code = 'CROSS_ORIGIN_REDIRECT';
  /** The HTTP method of the redirected request. */
  readonly requestMethod: string;
  readonly url: string;
  /** Where the server redirected to. */
  readonly location: string;

  constructor(requestMethod: string, url: string, location: string) {
    super(
      `${requestMethod} ${url}: the server redirected to ${location}, ${redirectTarget(url, location)}; ` +
        `not followed, for the request's headers and body would go there. Use the final URL instead.`,
    );
    this.name = 'CrossOriginRedirectError';
    this.requestMethod = requestMethod;
    this.url = url;
    this.location = location;
  }
}

/** How a redirect's target differs from where the request went, for an error message. */
function redirectTarget(url: string, location: string): string {
  if (location === OPAQUE_LOCATION) return 'a target the browser does not reveal (an opaque redirect)';
  if (!URL.canParse(location, url)) return 'which is not a URL';
  return `another origin (${new URL(url).origin} -> ${new URL(location, url).origin})`;
}

/** The `location` of a {@link CrossOriginRedirectError} for a browser's opaque redirect, whose target is hidden. */
export const OPAQUE_LOCATION = '(hidden by the browser)';

/** A JSON response body went past the client's cap (`maxResponseBytes`); the rest was not read. */
export class ResponseTooLargeError extends Error {
  readonly code = 'RESPONSE_TOO_LARGE';
  /** The cap, in bytes. */
  readonly limit: number;

  constructor(method: string, limit: number) {
    super(
      `The JSON response to "${method}" exceeds the ${limit} bytes cap (maxResponseBytes of the transport); the rest was not read`,
    );
    this.name = 'ResponseTooLargeError';
    this.limit = limit;
  }
}

export class FetchFailedError extends Error {
  readonly code = 'FETCH_FAILED';
  /** The HTTP method of the failed request. */
  readonly requestMethod: string;
  readonly url: string;

  constructor(requestMethod: string, url: string, cause: unknown) {
    super(`${requestMethod} ${url} failed: ${describeNetworkError(cause)}`, { cause });
    this.name = 'FetchFailedError';
    this.requestMethod = requestMethod;
    this.url = url;
  }
}

/** How many causes deep `describeNetworkError` reads (a cycle of causes ends there too). */
const MAX_CAUSE_DEPTH = 5;

/**
 * What a failed fetch says, from the error and its causes. fetch rejects with a bare TypeError
 * ("fetch failed" in Node's undici) whose `cause` is the socket's error (`connect ECONNREFUSED
 * 127.0.0.1:9`, `getaddrinfo ENOTFOUND host`), an AggregateError when several addresses were
 * tried. That wrapper is skipped; every other message is kept, outermost first, with its `code`
 * where the message lacks it and the messages of an AggregateError's errors.
 */
export function describeNetworkError(error: unknown): string {
  const parts: string[] = [];
  let current = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current != null; depth++) {
    if (!(current instanceof Error)) {
      parts.push(String(current));
      break;
    }
    // The Fetch standard turns every network error into a TypeError; its cause says which.
    const isWrapper = current instanceof TypeError && current.cause instanceof Error;
    const own = isWrapper ? '' : describeOne(current);
    if (own !== '' && !parts.some((part) => part.includes(own))) parts.push(own);
    current = current.cause;
  }
  return parts.length === 0 ? 'unknown network error' : parts.join(': ');
}

/** One error's message, its `code` when the message lacks it, and an AggregateError's errors. */
function describeOne(error: Error): string {
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  let text = error.message;
  if (Array.isArray(errors)) {
    const inner = [...new Set(errors.filter((e): e is Error => e instanceof Error).map(describeOne))];
    const joined = inner.filter((part) => part !== '').join('; ');
    if (joined !== '') text = text === '' ? joined : `${text} (${joined})`;
  }
  if (typeof code === 'string' && !text.includes(code)) text = text === '' ? code : `${text} (${code})`;
  return text;
}

/**
 * The server ended the HTTP session (404 to a request carrying its `Mcp-Session-Id`, HTTP-30).
 * The transport has forgotten the session; a new `initialize` starts a fresh one (HTTP-31).
 */
export class SessionExpiredError extends Error {
  readonly code = 'SESSION_EXPIRED';
  readonly sessionId: string;
  constructor(sessionId: string, method?: string) {
    const what = method === undefined ? '' : ` while sending "${method}"`;
    super(`The server ended HTTP session ${sessionId}${what}; initialize again to start a new one`);
    this.name = 'SessionExpiredError';
    this.sessionId = sessionId;
  }
}

/**
 * A response stream ended before the response to a request arrived and could not be resumed: the
 * stateless era has no resumption (S26-HTTP-8: re-issue the request with a new id), and the
 * handshake era gives up after the configured reconnection attempts or without an event id. Also
 * a JSON answer whose body the connection cut off. Either way the server had the request: it may
 * have acted on it.
 */
export class ResponseStreamLostError extends Error {
  readonly code = 'RESPONSE_STREAM_LOST';
  constructor(method: string, reason: string, options?: { cause?: unknown }) {
    super(`The response stream of "${method}" was lost: ${reason}`, options);
    this.name = 'ResponseStreamLostError';
  }
}

/**
 * The client could not deliver its answer to a server request (an elicitation, a sampling request)
 * even after retrying the POST (2025-11-25 section 2.8.1: an answer is a POST of its own). The
 * request of the client's whose stream carried the server's request fails with this, rather than
 * wait for a result the server cannot produce; `cause` is the last failure of the answer's POST.
 */
export class AnswerUndeliveredError extends Error {
  readonly code = 'ANSWER_UNDELIVERED';
  /** The id of the server's request that went unanswered. */
  readonly serverRequestId: string | number;
  constructor(method: string, serverRequestId: string | number, cause: unknown) {
    super(
      `"${method}" failed: the answer to the server's request ${JSON.stringify(serverRequestId)} could not be delivered, so the server cannot finish it`,
      { cause },
    );
    this.name = 'AnswerUndeliveredError';
    this.serverRequestId = serverRequestId;
  }
}

/** A tool was dropped from a `tools/list` result for an invalid `x-mcp-header` annotation (S26-HDR-3). */
export class InvalidToolHeaderError extends Error {
  readonly code = 'INVALID_TOOL_HEADER';
  readonly tool: string;
  constructor(tool: string, reason: string) {
    super(`Tool "${tool}" was dropped from tools/list: ${reason}`);
    this.name = 'InvalidToolHeaderError';
    this.tool = tool;
  }
}
