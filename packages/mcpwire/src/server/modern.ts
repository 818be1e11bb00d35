// The stateless era (2026-07-28): one request served on its own, from its `_meta` envelope.
// Order of checks (S26-META-3, S26-VER-2, checklist section 5 item 7): envelope -> (headers, on HTTP)
// -> version -> method -> capability -> params. Then the shared method table, with MRTR rounds.

import type { JsonObject, RequestId, SendOptions } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import { hasCapability } from '../protocol/capabilities.ts';
import { canSend, checkParams, isMethodInRevision, lookupMethod } from '../protocol/methods.ts';
import { MODERN_VERSIONS } from '../protocol/revisions.ts';
import { readEnvelope } from '../protocol/envelope.ts';
import { MetaKey, type Implementation, type LoggingLevel } from '../protocol/types/index.ts';
import type { InputBroker, MethodHandler, RequestContext } from './context.ts';
import { isLevelEnabled, isLoggingLevel } from './logging.ts';
import { InputRound } from './mrtr-broker.ts';
import { createRequestContext, type ContextOutput } from './request-context.ts';
import type { RequestStateSealer } from './request-state.ts';
import { cacheHints, type CacheDefaults } from './cache-hints.ts';
import { toCanonicalJson } from '../validation/index.ts';

/** What the stateless dispatcher needs of its server definition. */
export interface ModernHost {
  readonly info: Implementation;
  readonly options: { readonly instructions?: string; readonly cache?: CacheDefaults };
  readonly sealer: RequestStateSealer;
  capabilities(): object;
  dispatch(method: string, params: JsonObject, ctx: RequestContext, own?: MethodHandler): Promise<JsonObject>;
  /** Serves `subscriptions/listen` on the request's own stream. */
  listen(request: ModernRequest, stream: ModernStream): Promise<JsonObject>;
}

/** One stateless request. */
export interface ModernRequest {
  id: RequestId;
  method: string;
  params: JsonObject;
  /** Made on first use; `isCancelled` is the cheap check. */
  readonly signal: AbortSignal;
  readonly isCancelled: boolean;
}

/** Where notifications scoped to the request go (its response stream; on stdio, the shared channel). */
export interface ModernStream {
  notify(method: string, params: JsonObject, options?: SendOptions): Promise<void>;
}

/** The methods only the stateless era has; the rest come from the shared table. */
const MRTR_METHODS = new Set(['tools/call', 'resources/read', 'prompts/get']);

/**
 * Serves one stateless request and returns its result (with `resultType`, server info in `_meta`
 * and caching hints where the method is cacheable), or throws RpcError.
 */
export async function serveModern(
  host: ModernHost,
  request: ModernRequest,
  stream: ModernStream,
): Promise<JsonObject> {
  const envelope = readEnvelope(request.params);
  const { method, params } = request;
  const spec = lookupMethod(method);
  if (
    !spec ||
    spec.kind !== 'request' ||
    !canSend(spec, 'client') ||
    !isMethodInRevision(spec, envelope.version)
  ) {
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `Method not found: "${method}"${spec ? ` does not exist in protocol revision ${envelope.version}` : ''}`,
    );
  }
  const capabilities = host.capabilities() as JsonObject;
  if (spec.gate && spec.gate.side !== 'client' && !hasCapability(capabilities, spec.gate.path)) {
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `Method not found: "${method}" needs the server capability "${spec.gate.path.join('.')}", which this server does not declare`,
    );
  }
  const problem = checkParams(method, spec, params);
  if (problem) throw new RpcError(ErrorCode.InvalidParams, problem);
  const logLevel = envelope.meta[MetaKey.logLevel];
  if (logLevel !== undefined && !isLoggingLevel(logLevel)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: unknown "${MetaKey.logLevel}" ${JSON.stringify(logLevel)}`,
    );
  }
  let result: JsonObject;
  if (method === 'server/discover') result = discover(host, capabilities);
  else if (method === 'subscriptions/listen') return host.listen(request, stream);
  else result = await runRounds(host, request, envelope, stream);
  return decorate(host, method, result);
}

function discover(host: ModernHost, capabilities: JsonObject): JsonObject {
  const result: JsonObject = { supportedVersions: [...MODERN_VERSIONS], capabilities };
  if (host.options.instructions !== undefined) result.instructions = host.options.instructions;
  return result;
}

async function runRounds(
  host: ModernHost,
  request: ModernRequest,
  envelope: ReturnType<typeof readEnvelope>,
  stream: ModernStream,
): Promise<JsonObject> {
  const { method, params } = request;
  const isMrtr = MRTR_METHODS.has(method);
  const responses = params.inputResponses;
  if (
    responses !== undefined &&
    (typeof responses !== 'object' || responses === null || Array.isArray(responses))
  ) {
    throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: inputResponses must be an object');
  }
  // The binding digest is only needed when a state is opened or sealed (most calls need neither).
  const earlier =
    isMrtr && params.requestState !== undefined
      ? (await host.sealer.open(await bindingOf(method, params), params.requestState)).answers
      : undefined;
  // The handler sees its params without the round's bookkeeping (copied only when there is some).
  const handlerParams =
    responses === undefined && params.requestState === undefined ? params : withoutRoundKeys(params);
  // A complete result gets its `resultType` from `decorate`.
  if (!isMrtr)
    return await host.dispatch(method, handlerParams, modernContext(request, envelope, stream, undefined));
  const answers = earlier || responses ? { ...earlier, ...(responses as JsonObject | undefined) } : {};
  let round!: InputRound;
  // Settles with the handler's result, or undefined when the round ends needing input first.
  const outcome = await new Promise<JsonObject | undefined>((resolve, reject) => {
    round = new InputRound(answers, envelope.capabilities as JsonObject, () => resolve(undefined));
    host
      .dispatch(method, handlerParams, modernContext(request, envelope, stream, round))
      .then(resolve, reject);
  });
  if (outcome) return outcome;
  return {
    resultType: 'input_required',
    inputRequests: round.requested,
    requestState: await host.sealer.seal(await bindingOf(method, params), { ...earlier, ...round.consumed }),
  };
}

/** The params without the round's bookkeeping (`inputResponses`, `requestState`). */
function withoutRoundKeys(params: JsonObject): JsonObject {
  const { inputResponses: _r, requestState: _s, ...rest } = params;
  return rest;
}

/** The method and a digest of the params that identify the request (S26-MRTR-4: bind the state to it). */
async function bindingOf(method: string, params: JsonObject): Promise<string> {
  const key = toCanonicalJson({ name: params.name, uri: params.uri, arguments: params.arguments });
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  return `${method}#${Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function modernContext(
  request: ModernRequest,
  envelope: ReturnType<typeof readEnvelope>,
  stream: ModernStream,
  round: InputRound | undefined,
): RequestContext {
  return createRequestContext(
    {
      era: 'modern',
      protocolVersion: envelope.version,
      clientCapabilities: envelope.capabilities,
      clientInfo: envelope.clientInfo,
      request,
      meta: envelope.meta,
    },
    new ModernOutput(
      stream,
      envelope.meta[MetaKey.logLevel] as LoggingLevel | undefined,
      round,
      request.method,
    ),
  );
}

/** Where a stateless request's context sends things: its stream, its own log level, its round. */
class ModernOutput implements ContextOutput {
  readonly #stream: ModernStream;
  readonly #level: LoggingLevel | undefined;
  readonly #round: InputRound | undefined;
  readonly #method: string;

  constructor(
    stream: ModernStream,
    level: LoggingLevel | undefined,
    round: InputRound | undefined,
    method: string,
  ) {
    this.#stream = stream;
    this.#level = level;
    this.#round = round;
    this.#method = method;
  }

  notify(method: string, params: JsonObject, options: SendOptions): Promise<void> {
    return this.#stream.notify(method, params, options);
  }

  /** S26-LOG-1: no messages unless this request asked for a level. */
  isLogEnabled(level: LoggingLevel): boolean {
    return this.#level !== undefined && isLevelEnabled(level, this.#level);
  }

  get broker(): InputBroker {
    return (
      this.#round ?? {
        request: () =>
          Promise.reject(
            new Error(
              `"${this.#method}" cannot ask the client for input (only tools/call, resources/read and prompts/get can)`,
            ),
          ),
      }
    );
  }
}

/** Adds server info (S26-META-5) and, on complete cacheable results, caching hints (S26-CACHE-1). */
function decorate(host: ModernHost, method: string, result: JsonObject): JsonObject {
  const meta = { ...((result._meta as JsonObject | undefined) ?? {}), [MetaKey.serverInfo]: host.info };
  const out: JsonObject = { resultType: 'complete', ...result, _meta: meta };
  if (out.resultType === 'complete') Object.assign(out, cacheHints(method, result, host.options.cache));
  return out;
}
