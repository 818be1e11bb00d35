// One request of the stateless era (2026-07-28): the `_meta` envelope on every request, the -32022
// retry at a mutual version, and multi-round-trip input (S26-META-2, S26-VER-3, S26-MRTR-6..9).

import type { JsonObject } from '../jsonrpc/message.ts';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import type { RequestOptions } from '../protocol/session.ts';
import { STATELESS_VERSIONS } from '../protocol/revisions.ts';
import {
  MetaKey,
  StatelessErrorCode,
  type ClientCapabilities,
  type Implementation,
} from '../protocol/types/index.ts';
import { InvalidResultError } from './errors.ts';

/** What a stateless-era call needs from its client. */
export interface StatelessLink {
  /** The revision named on every request; updated when a -32022 names a better one. */
  version: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  /** The per-request log level (S26-LOG-1), if the app asked for log messages. */
  logLevel?: string;
  /** Sends one JSON-RPC request (a new id each time) and resolves with its result. */
  send(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
  /** Answers one embedded input request through the app's handlers. */
  answer(method: string, params: JsonObject, signal: AbortSignal | undefined): Promise<JsonObject>;
  /** Rounds before giving up (S26-MRTR-6); default 10. */
  maxRounds?: number;
  /** Result types besides complete and input_required that the client's extensions accept, per method. */
  resultTypes?: Readonly<Record<string, readonly string[]>>;
}

/** Adds the envelope to `params`, keeping any `_meta` the caller set. */
export function withEnvelope(link: StatelessLink, params: JsonObject | undefined): JsonObject {
  const meta: JsonObject = {
    ...((params?._meta as JsonObject | undefined) ?? {}),
    [MetaKey.protocolVersion]: link.version,
    [MetaKey.clientCapabilities]: link.capabilities,
    [MetaKey.clientInfo]: link.clientInfo,
  };
  if (link.logLevel !== undefined) meta[MetaKey.logLevel] = link.logLevel;
  return { ...(params ?? {}), _meta: meta };
}

/**
 * Sends a request in the stateless era and resolves with its complete result. An
 * `input_required` result is answered through the app's handlers and the request re-sent with
 * a new id, the answers, and the server's `requestState` exactly as received (never parsed).
 * A missing `resultType` means complete; an unknown one is an InvalidResultError (S26-BASE-3/4).
 */
export async function sendStateless(
  link: StatelessLink,
  method: string,
  params: JsonObject | undefined,
  options: RequestOptions = {},
): Promise<JsonObject> {
  const maxRounds = link.maxRounds ?? 10;
  let extra: JsonObject = {};
  for (let round = 1; ; round++) {
    const result = await sendWithVersionRetry(link, method, { ...(params ?? {}), ...extra }, options);
    const type = result.resultType ?? 'complete';
    if (type === 'complete' || isAccepted(link, method, type)) return result;
    if (type !== 'input_required')
      throw new InvalidResultError(method, `unknown resultType ${JSON.stringify(type)}`);
    if (round >= maxRounds)
      throw new InvalidResultError(method, `the server still asked for input after ${maxRounds} rounds`);
    extra = {};
    const requests = result.inputRequests;
    if (requests !== undefined) {
      if (typeof requests !== 'object' || requests === null)
        throw new InvalidResultError(method, 'inputRequests must be an object');
      const responses: JsonObject = {};
      for (const [key, request] of Object.entries(
        requests as Record<string, { method?: unknown; params?: unknown }>,
      )) {
        if (typeof request?.method !== 'string')
          throw new InvalidResultError(method, `inputRequests["${key}"] has no method`);
        responses[key] = await link.answer(
          request.method,
          (request.params as JsonObject | undefined) ?? {},
          options.signal,
        );
      }
      extra.inputResponses = responses;
    }
    // S26-MRTR-7: echo the state byte for byte, and only when the server gave one.
    if (typeof result.requestState === 'string') extra.requestState = result.requestState;
  }
}

/** True if an extension of the client accepts `type` as the result of `method` (e.g. `task`, S26-TASK-3). */
function isAccepted(link: StatelessLink, method: string, type: unknown): boolean {
  const accepted = link.resultTypes;
  return (
    accepted !== undefined &&
    typeof type === 'string' &&
    Object.hasOwn(accepted, method) &&
    accepted[method]!.includes(type)
  );
}

/**
 * The stateless-era requests that only read, so a lost one is re-issued without asking (S26-HTTP-8).
 * A method not listed (tools/call, an extension's method) is never repeated behind the caller's back.
 */
const REISSUABLE_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

async function sendWithVersionRetry(
  link: StatelessLink,
  method: string,
  params: JsonObject,
  options: RequestOptions,
): Promise<JsonObject> {
  try {
    return await link.send(method, withEnvelope(link, params), options);
  } catch (error) {
    // S26-HTTP-8: a request whose response stream broke is lost. It is re-issued once, with a new
    // id, only when running it twice changes nothing; anything else (a tools/call) may have run, so
    // the caller gets the ResponseStreamLostError and decides.
    if ((error as { code?: unknown }).code === 'RESPONSE_STREAM_LOST' && REISSUABLE_METHODS.has(method))
      return link.send(method, withEnvelope(link, params), options);
    if (!(error instanceof RpcError) || error.code !== StatelessErrorCode.UnsupportedProtocolVersion)
      throw error;
    const supported = (error.data as { supported?: unknown } | undefined)?.supported;
    const mutual = Array.isArray(supported)
      ? STATELESS_VERSIONS.find((v) => supported.includes(v))
      : undefined;
    // S26-VER-3: retry once at a mutual version (even the same one, as conformance's mock expects).
    if (mutual === undefined) throw error;
    link.version = mutual;
    return link.send(method, withEnvelope(link, params), options);
  }
}
