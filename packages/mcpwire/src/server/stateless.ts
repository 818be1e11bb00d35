// The stateless era (2026-07-28): one request served on its own, from its `_meta` envelope.
// Order of checks (S26-META-3, S26-VER-2, checklist section 5 item 7): envelope -> (headers, on HTTP)
// -> version -> method -> capability -> params (the inbound check both eras share). Then the server's
// one handler table, with MRTR rounds for the methods whose row has them.

import type { JsonObject, RequestId, SendOptions } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import { checkInbound, type InboundScope } from '../protocol/inbound-check.ts';
import type { MethodTable } from '../protocol/method-table.ts';
import type { ServedEras } from '../protocol/revisions.ts';
import type { MethodSpec } from '../protocol/methods.ts';
import type { Principal } from '../protocol/principal.ts';
import { readEnvelope } from '../protocol/envelope.ts';
import { MetaKey, type LoggingLevel, type SubscriptionsListenResult } from '../protocol/types/index.ts';
import type { InputBroker, RequestContext } from './context.ts';
import type { HandlerHost, RequestOrigin } from './method-handlers.ts';
import { isLevelEnabled, isLoggingLevel } from './logging.ts';
import { FIRST_ROUND, InputRound, type RoundStart } from './mrtr-broker.ts';
import { createRequestContext, type ContextOutput } from './request-context.ts';
import type { RequestStateSealer } from './request-state.ts';
import { cacheHints, type CacheDefaults } from './cache-hints.ts';
import { toCanonicalJson } from '../validation/index.ts';
import { createEncodedTail, encodedTail, type EncodedTail } from '../jsonrpc/encoded-tail.ts';

/** What the stateless dispatcher needs of its server definition. */
export interface StatelessHost extends HandlerHost {
  readonly options: { readonly instructions?: string; readonly cache?: CacheDefaults };
  readonly sealer: RequestStateSealer;
  /** The core's and the extensions' method rows. */
  readonly methods: MethodTable;
  /** The eras it speaks; both when absent. */
  readonly eras?: ServedEras;
  dispatch(
    method: string,
    params: JsonObject,
    ctx: RequestContext,
    origin: RequestOrigin,
  ): Promise<JsonObject> | JsonObject;
  /** Serves `subscriptions/listen` on the request's own stream. */
  listen(request: StatelessRequest, stream: StatelessStream): Promise<SubscriptionsListenResult>;
}

/** One stateless request. */
export interface StatelessRequest {
  id: RequestId;
  method: string;
  params: JsonObject;
  /** Made on first use; `isCancelled` is the cheap check. */
  readonly signal: AbortSignal;
  readonly isCancelled: boolean;
}

/** Where notifications scoped to the request go (its response stream; on stdio, the shared channel). */
export interface StatelessStream {
  notify(method: string, params: JsonObject, options?: SendOptions): Promise<void>;
  /** Who sent the request `requestId`, as the transport authenticated it (becomes `ctx.auth`). */
  principalOf?(requestId: RequestId): Principal | undefined;
}

/**
 * The inbound check's view of one stateless request, reused: the check is synchronous, so one
 * object serves every request (no allocation per message).
 */
const scope: { -readonly [K in keyof InboundScope]: InboundScope[K] } = {
  receiver: 'server',
  era: 'stateless',
  protocolVersion: undefined,
  ownCapabilities: {},
};

/**
 * Serves one stateless request and returns its result (with `resultType`, server info in `_meta`
 * and caching hints where the method is cacheable), or throws RpcError. A plain value, not a
 * promise, where the handler table answered with one (ServerCore.dispatch's fast path).
 */
export function serveStateless(
  host: StatelessHost,
  request: StatelessRequest,
  stream: StatelessStream,
): Promise<JsonObject> | JsonObject {
  // Not an async function (one promise and its turns fewer per request); a synchronous throw still rejects.
  try {
    const envelope = readEnvelope(request.params);
    scope.protocolVersion = envelope.version;
    scope.ownCapabilities = host.capabilities();
    const spec = checkInbound(host.methods.lookup(request.method), request, scope);
    const logLevel = envelope.meta[MetaKey.logLevel];
    if (logLevel !== undefined && !isLoggingLevel(logLevel)) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        // Only a string is shown: JSON.stringify of a peer's object may recurse past the stack (issue 21).
        `Invalid params: unknown "${MetaKey.logLevel}" ${typeof logLevel === 'string' ? JSON.stringify(logLevel.slice(0, 100)) : Array.isArray(logLevel) ? '(an array)' : `(${typeof logLevel})`}`,
      );
    }
    return runRounds(host, spec, request, envelope, stream);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The handler's result, decorated (`decorate`; a listen result closes its stream as the handler
 * made it, S26-SUB). Not an async function: a method without input rounds and the first round of
 * one with them (the common cases) cost the handler's promise and one `then`, no await turns.
 * Throws RpcError synchronously for a malformed `inputResponses`.
 */
function runRounds(
  host: StatelessHost,
  spec: MethodSpec,
  request: StatelessRequest,
  envelope: ReturnType<typeof readEnvelope>,
  stream: StatelessStream,
): Promise<JsonObject> | JsonObject {
  const { method, params } = request;
  const responses = params.inputResponses;
  if (
    responses !== undefined &&
    (typeof responses !== 'object' || responses === null || Array.isArray(responses))
  ) {
    throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: inputResponses must be an object');
  }
  // Other methods get their params as sent (`tasks/update` has `inputResponses` of its own).
  if (spec.hasInputRounds !== true) {
    const origin = new StatelessOutput(host, request, stream, envelope, undefined);
    const result = host.dispatch(method, params, statelessContext(request, envelope, stream, origin), origin);
    if (spec.isStreamed) return result;
    if (!(result instanceof Promise)) return decorate(host, spec, result);
    return result.then((value) => decorate(host, spec, value));
  }
  // A first round has no answers and no state to open.
  if (responses === undefined && params.requestState === undefined)
    return runRound(host, spec, request, envelope, stream, params, FIRST_ROUND);
  return runLaterRound(host, spec, request, envelope, stream, responses as JsonObject | undefined);
}

/** A round after the first: its answers and its sealed state are checked and opened first. */
async function runLaterRound(
  host: StatelessHost,
  spec: MethodSpec,
  request: StatelessRequest,
  envelope: ReturnType<typeof readEnvelope>,
  stream: StatelessStream,
  responses: JsonObject | undefined,
): Promise<JsonObject> {
  const { method, params } = request;
  // The binding digest is only needed when a state is opened or sealed.
  const opened =
    params.requestState !== undefined
      ? await host.sealer.open(await bindingOf(method, params), params.requestState)
      : undefined;
  const earlier = opened?.answers;
  // Issue 21: only answers to input requests the previous round issued (sealed in its requestState)
  // count; any other key, or any answer without a valid requestState, is ignored like an unknown key
  // (S26-MRTR-10), so the handler asks again instead of acting on an answer nobody was asked for.
  checkAnswerShapes(responses, opened?.asked);
  const solicited = solicitedAnswers(responses, opened?.asked);
  const answers = earlier || solicited ? { ...earlier, ...solicited } : {};
  // The handler sees its params without the round's bookkeeping.
  return await runRound(host, spec, request, envelope, stream, withoutRoundKeys(params), {
    answers,
    earlier,
    asked: opened?.asked ?? [],
    carried: opened?.carried,
  });
}

/**
 * One round of a method with input rounds: the handler's result, or (when it asked for input the
 * round has no answer to) an InputRequiredResult with the sealed state for the retry; decorated. A
 * handler's plain result (ServerCore.dispatch's fast path) is decorated and returned as it is: the
 * round's `onNeeded` fires a macrotask later at the earliest, so the result has already decided.
 */
function runRound(
  host: StatelessHost,
  spec: MethodSpec,
  request: StatelessRequest,
  envelope: ReturnType<typeof readEnvelope>,
  stream: StatelessStream,
  handlerParams: JsonObject,
  start: RoundStart,
): Promise<JsonObject> | JsonObject {
  // The round itself (InputRound) is made when the handler first reaches for input: most never do.
  const origin = new StatelessOutput(host, request, stream, envelope, start);
  const outcome: Promise<JsonObject | undefined> | JsonObject | undefined = host.dispatch(
    request.method,
    handlerParams,
    statelessContext(request, envelope, stream, origin),
    origin,
  );
  if (outcome !== undefined && !(outcome instanceof Promise)) return decorate(host, spec, outcome);
  // One promise settles the round: with the handler's result or, once the round needs input (its
  // `onNeeded`, a macrotask after the first missing input), with the input-required result;
  // whichever comes first decides, as an undefined result means the round needs input.
  return new Promise<JsonObject>((resolve, reject) => {
    let isDecided = false;
    const settle = (result: JsonObject): void => {
      try {
        resolve(decorate(host, spec, result));
      } catch (error) {
        reject(error);
      }
    };
    const needInput = (): void => {
      if (isDecided) return;
      isDecided = true;
      inputRequired(host, request, origin.round, start.earlier).then(settle, reject);
    };
    origin.onNeeded = needInput;
    (outcome instanceof Promise ? outcome : Promise.resolve(outcome)).then(
      (value: JsonObject | undefined) => {
        if (value === undefined) return needInput();
        if (isDecided) return;
        isDecided = true;
        settle(value);
      },
      (error: unknown) => {
        if (isDecided) return;
        isDecided = true;
        reject(error);
      },
    );
  });
}

/** The result of a round that ended needing input: what it asks, and the state sealed for the retry. */
async function inputRequired(
  host: StatelessHost,
  request: StatelessRequest,
  round: InputRound,
  earlier: JsonObject | undefined,
): Promise<JsonObject> {
  return {
    resultType: 'input_required',
    inputRequests: round.requested,
    requestState: await host.sealer.seal(
      await bindingOf(request.method, request.params),
      { ...earlier, ...round.consumed },
      Object.keys(round.requested),
      round.toCarry,
    ),
  };
}

/**
 * Malformed answers are a JSON-RPC error (S26-MRTR-10): a value that is no object, for a key the
 * previous round asked for or, without a valid state to tell, for any key. Keys a known round did not
 * ask for are ignored whatever they hold.
 */
function checkAnswerShapes(responses: JsonObject | undefined, asked: readonly string[] | undefined): void {
  if (responses === undefined) return;
  for (const [key, value] of Object.entries(responses)) {
    if (asked !== undefined && !asked.includes(key)) continue;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params: inputResponses[${JSON.stringify(key.slice(0, 100))}] must be an object (the result of that input request)`,
      );
  }
}

/** The answers among `responses` whose keys the previous round asked for; undefined when none. */
function solicitedAnswers(
  responses: JsonObject | undefined,
  asked: readonly string[] | undefined,
): JsonObject | undefined {
  if (responses === undefined || asked === undefined) return undefined;
  const kept: JsonObject = {};
  for (const key of asked) if (Object.hasOwn(responses, key)) kept[key] = responses[key];
  return kept;
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

function statelessContext(
  request: StatelessRequest,
  envelope: ReturnType<typeof readEnvelope>,
  stream: StatelessStream,
  output: StatelessOutput,
): RequestContext {
  return createRequestContext(
    {
      era: 'stateless',
      protocolVersion: envelope.version,
      clientCapabilities: envelope.capabilities,
      clientInfo: envelope.clientInfo,
      request,
      meta: envelope.meta,
      auth: stream.principalOf?.(request.id),
    },
    output,
  );
}

/**
 * Where a stateless request's context sends things (its stream, its own log level, its round), and
 * its origin for the handler table (the server and the request's stream, no connection).
 */
class StatelessOutput implements ContextOutput, RequestOrigin {
  readonly server: StatelessHost;
  readonly connection = undefined;
  readonly #request: StatelessRequest;
  readonly #stream: StatelessStream;
  readonly #level: LoggingLevel | undefined;
  readonly #capabilities: JsonObject;
  /** Where the request's round starts; undefined for a method without input rounds. */
  readonly #start: RoundStart | undefined;
  #round: InputRound | undefined;
  /** Set by runRound once the handler answered with a promise: ends the round needing input. */
  onNeeded: (() => void) | undefined;

  constructor(
    host: StatelessHost,
    request: StatelessRequest,
    stream: StatelessStream,
    envelope: ReturnType<typeof readEnvelope>,
    start: RoundStart | undefined,
  ) {
    this.server = host;
    this.#request = request;
    this.#stream = stream;
    this.#level = envelope.meta[MetaKey.logLevel] as LoggingLevel | undefined;
    this.#capabilities = envelope.capabilities as JsonObject;
    this.#start = start;
  }

  /** This request's round (a method with input rounds only), made on first use. */
  get round(): InputRound {
    return (this.#round ??= new InputRound(this.#start!, this.#capabilities, () => this.onNeeded?.()));
  }

  listen(): Promise<SubscriptionsListenResult> {
    return this.server.listen(this.#request, this.#stream);
  }

  notify(method: string, params: JsonObject, options: SendOptions): Promise<void> {
    return this.#stream.notify(method, params, options);
  }

  /** S26-LOG-1: no messages unless this request asked for a level. */
  isLogEnabled(level: LoggingLevel): boolean {
    return this.#level !== undefined && isLevelEnabled(level, this.#level);
  }

  get broker(): InputBroker {
    if (this.#start !== undefined) return this.round;
    return {
      request: () =>
        Promise.reject(
          new Error(
            `"${this.#request.method}" cannot ask the client for input (only tools/call, resources/read and prompts/get can)`,
          ),
        ),
    };
  }
}

/** Adds server info (S26-META-5) and, on complete cacheable results, caching hints (S26-CACHE-1). */
function decorate(host: StatelessHost, spec: MethodSpec, result: JsonObject): JsonObject {
  const own = result._meta as JsonObject | undefined;
  if (own === undefined && !spec.cache && !Object.hasOwn(result, '_meta')) {
    // `_meta` comes last here, so the encoder splices its text, made once per server info.
    const tail = serverInfoTail(host);
    return { resultType: 'complete', ...result, _meta: tail.value as JsonObject, [encodedTail]: tail };
  }
  const meta = own === undefined ? serverInfoTail(host).value : { ...own, [MetaKey.serverInfo]: host.info };
  const out: JsonObject = { resultType: 'complete', ...result, _meta: meta as JsonObject };
  if (out.resultType === 'complete' && spec.cache)
    Object.assign(out, cacheHints(spec.cache, result, host.options.cache));
  return out;
}

/** `_meta` holding only the server info, and its text: one per server info, shared by every result. */
function serverInfoTail(host: StatelessHost): EncodedTail {
  let tail = infoTails.get(host.info);
  if (tail === undefined) {
    tail = createEncodedTail('_meta', { [MetaKey.serverInfo]: host.info });
    infoTails.set(host.info, tail);
  }
  return tail;
}

const infoTails = new WeakMap<object, EncodedTail>();
