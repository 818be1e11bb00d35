// Requests the server sends the client (sampling, elicitation, roots), routed to the app's handlers
// after the checks only the client can make: elicitation modes (ELIC-2), sampling tools (SAMP-3).

import type { JsonObject, RequestId } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import { hasCapability } from '../protocol/capabilities.ts';
import type { ParamsOf, RequestMethodOnlySentBy, ResultOf } from '../protocol/method-types.ts';
import { hasFeature } from '../protocol/revisions.ts';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
  Root,
} from '../protocol/types/index.ts';
import { applyElicitationDefaults } from '../validation/index.ts';
import { declaredElicitationModes } from './client-capabilities.ts';

/** What a client handler knows about the request it serves. */
export interface ClientRequestContext {
  /** Fires when the server cancels the request or the connection closes; the answer is then dropped. */
  readonly signal: AbortSignal;
  readonly requestId: RequestId;
  /** The request's `params._meta`, as received. */
  readonly meta: JsonObject;
  /** The negotiated protocol revision. */
  readonly protocolVersion: string;
}

/**
 * The app's answers to server requests. Each one given is declared as a capability at initialize.
 * Throw `RpcError` for a protocol error (e.g. code -1 when the user rejects a sampling request,
 * SAMP-11); anything else thrown becomes -32603.
 */
export interface ClientHandlers {
  /** `sampling/createMessage`: run the model (with the user's approval, SAMP-2). */
  sampling?: (
    params: CreateMessageRequestParams,
    ctx: ClientRequestContext,
  ) => CreateMessageResult | Promise<CreateMessageResult>;
  /**
   * `elicitation/create`: ask the user. `params.mode` absent means form (ELIC-3). Accepted form
   * content is completed from the schema's `default`s before it is sent.
   */
  elicitation?: (
    params: ElicitRequestParams,
    ctx: ClientRequestContext,
  ) => ElicitResult | Promise<ElicitResult>;
  /** `roots/list`: the roots the user allows this server to see (ROOT-5). Replaces `setRoots`. */
  roots?: (ctx: ClientRequestContext) => readonly Root[] | Promise<readonly Root[]>;
}

/** What the router reads from its client, at request time. */
export interface ServerRequestSources {
  handlers: ClientHandlers;
  /** The roots set with `setRoots` (used when there is no roots handler). */
  roots(): readonly Root[];
  /** This client's declared capabilities on the current connection. */
  capabilities(): JsonObject;
}

/** Unanswered URL elicitations kept for ELIC-11; the oldest is forgotten beyond this many. */
const MAX_OPEN_URL_ELICITATIONS = 1000;

/**
 * The server->client requests a client answers, derived from the method table (rows whose sender is
 * the server and kind is request): sampling, elicitation and roots, all of the handshake era.
 */
export type ServerRequestMethod = RequestMethodOnlySentBy<'server'>;

/** The answer to server request `M`: the params its row describes in, its row's result out. */
type InboundHandler<M extends ServerRequestMethod> = (
  router: ServerRequests,
  params: ParamsOf<M>,
  ctx: ClientRequestContext,
) => Promise<ResultOf<M>>;

/** The same, as the dispatch in `handle` calls it: params the session checked against the row. */
type CheckedInboundHandler = (
  router: ServerRequests,
  params: JsonObject,
  ctx: ClientRequestContext,
) => Promise<JsonObject>;

/** Who answers each server request. Exhaustive: a server->client row without an entry does not compile. */
const INBOUND_METHODS: { readonly [M in ServerRequestMethod]: InboundHandler<M> } = {
  'sampling/createMessage': (router, params, ctx) => router.handleSampling(params, ctx),
  'elicitation/create': (router, params, ctx) => router.handleElicitation(params, ctx),
  'roots/list': (router, _params, ctx) => router.handleRootsList(ctx),
};

/**
 * Routes server requests to the client's handlers. The session has already checked that the
 * method is known, allowed, and covered by a declared capability. Also remembers accepted URL
 * elicitations, so `notifications/elicitation/complete` is surfaced once, for known ids only.
 */
export class ServerRequests {
  #sources: ServerRequestSources;
  #openUrlElicitations = new Set<string>();

  constructor(sources: ServerRequestSources) {
    this.#sources = sources;
  }

  /** Answers one server request; rejects with RpcError -32601 for a method the client does not serve. */
  handle(request: { method: string; params: JsonObject }, ctx: ClientRequestContext): Promise<JsonObject> {
    const { method, params } = request;
    if (!Object.hasOwn(INBOUND_METHODS, method))
      return Promise.reject(new RpcError(ErrorCode.MethodNotFound, `Method not found: "${method}"`));
    // The one untyped step: the session checked `params` against the row of `method` before this
    // (inbound-check.ts), and that row's params type is the one its handler takes.
    const row = INBOUND_METHODS[method as ServerRequestMethod] as CheckedInboundHandler;
    return row(this, params, ctx);
  }

  /**
   * True, once, for an elicitation id this client accepted in URL mode and has not yet seen
   * completed; false for unknown or already completed ids (ELIC-11: ignore them).
   */
  completeElicitation(elicitationId: unknown): boolean {
    return typeof elicitationId === 'string' && this.#openUrlElicitations.delete(elicitationId);
  }

  /** Forgets connection state (open URL elicitations). */
  clear(): void {
    this.#openUrlElicitations.clear();
  }

  /** `sampling/createMessage`. */
  async handleSampling(
    params: CreateMessageRequestParams,
    ctx: ClientRequestContext,
  ): Promise<CreateMessageResult> {
    const handler = this.#sources.handlers.sampling;
    if (!handler) throw noHandler('sampling/createMessage');
    // SAMP-3: a client that did not declare sampling.tools MUST answer tool-enabled requests with an error.
    if (
      (params.tools !== undefined || params.toolChoice !== undefined) &&
      !hasCapability(this.#sources.capabilities(), ['sampling', 'tools'])
    ) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        'Invalid params for "sampling/createMessage": "tools"/"toolChoice" need the client capability "sampling.tools", which was not declared',
      );
    }
    const result = await handler(params, ctx);
    return toRevisionSamplingResult(result, ctx.protocolVersion);
  }

  /** `elicitation/create`. */
  async handleElicitation(params: ElicitRequestParams, ctx: ClientRequestContext): Promise<ElicitResult> {
    const handler = this.#sources.handlers.elicitation;
    if (!handler) throw noHandler('elicitation/create');
    // Checked here: the row checks `message` only, so `mode` is whatever the server sent.
    const mode: unknown = params.mode ?? 'form'; // ELIC-3: an absent mode is form.
    if (mode !== 'form' && mode !== 'url') throw invalidElicitation(`unknown mode ${JSON.stringify(mode)}`);
    const declared = declaredElicitationModes(this.#sources.capabilities());
    if (!declared.includes(mode)) {
      // ELIC-2: a mode the client did not declare MUST get -32602.
      throw invalidElicitation(
        `mode "${mode}" was not declared by this client (declared: ${declared.join(', ') || 'none'})`,
      );
    }
    checkElicitationShape(mode, params);
    const result = await handler(params, ctx);
    // `params.mode` is "url" exactly when `mode` is: this narrows params to the URL variant.
    if (params.mode === 'url') {
      // checkElicitationShape made sure of a string elicitationId.
      if (result.action === 'accept') this.#rememberUrlElicitation(params.elicitationId);
      return result;
    }
    if (result.action !== 'accept') return result;
    // SEP-1034 (ELIC-6): fields the user left empty take the schema's defaults. Revisions before
    // 2025-11-25 answer only strings, numbers and booleans, so list defaults are not filled there.
    const filled = applyElicitationDefaults(params.requestedSchema, result.content);
    if (!hasFeature(ctx.protocolVersion, 'elicitationUrl')) {
      for (const [key, value] of Object.entries(filled))
        if (Array.isArray(value) && !Array.isArray(result.content?.[key])) delete filled[key];
    }
    return { ...result, content: filled };
  }

  /** `roots/list`. */
  async handleRootsList(ctx: ClientRequestContext): Promise<ListRootsResult> {
    const handler = this.#sources.handlers.roots;
    const roots = handler ? await handler(ctx) : this.#sources.roots();
    const problem = findRootProblem(roots);
    if (problem) throw new Error(`The roots handler returned an invalid root: ${problem}`);
    return { roots: [...roots] };
  }

  #rememberUrlElicitation(elicitationId: string): void {
    this.#openUrlElicitations.add(elicitationId);
    if (this.#openUrlElicitations.size > MAX_OPEN_URL_ELICITATIONS) {
      const oldest = this.#openUrlElicitations.values().next().value;
      if (oldest !== undefined) this.#openUrlElicitations.delete(oldest);
    }
  }
}

/** Throws TypeError for roots a client must not serve (see findRootProblem). */
export function checkRoots(roots: readonly Root[]): void {
  const problem = findRootProblem(roots);
  if (problem) throw new TypeError(`Invalid root: ${problem}`);
}

/**
 * A problem with a list of roots, or undefined: each root needs a `file://` URI (ROOT-2) and
 * at most a string `name`.
 */
export function findRootProblem(roots: readonly Root[]): string | undefined {
  for (const root of roots) {
    if (typeof root.uri !== 'string' || !root.uri.startsWith('file://'))
      return `uri ${JSON.stringify(root.uri)} is not a file:// URI`;
    if (root.name !== undefined && typeof root.name !== 'string')
      return `name of ${root.uri} is not a string`;
  }
  return undefined;
}

function checkElicitationShape(
  mode: 'form' | 'url',
  params: { requestedSchema?: unknown; url?: unknown; elicitationId?: unknown },
): void {
  if (mode === 'form') {
    const schema = params.requestedSchema;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw invalidElicitation('form mode needs "requestedSchema" to be an object');
    }
    return;
  }
  // ELIC-9: URL mode carries a url and an elicitationId.
  if (typeof params.url !== 'string') throw invalidElicitation('url mode needs "url" to be a string');
  if (typeof params.elicitationId !== 'string')
    throw invalidElicitation('url mode needs "elicitationId" to be a string');
}

/**
 * Older revisions carry exactly one content block per sampling message (SAMP-13): a one-block
 * array is unwrapped for them, a longer one is a handler bug.
 */
function toRevisionSamplingResult(result: CreateMessageResult, version: string): CreateMessageResult {
  if (!Array.isArray(result.content) || hasFeature(version, 'samplingTools')) return result;
  const [only, ...rest] = result.content;
  if (only === undefined || rest.length > 0) {
    throw new Error(
      `The sampling handler returned ${result.content.length} content blocks; protocol revision ${version} carries exactly one`,
    );
  }
  return { ...result, content: only };
}

function noHandler(method: string): RpcError {
  return new RpcError(
    ErrorCode.MethodNotFound,
    `Method not found: "${method}" has no handler on this client`,
  );
}

function invalidElicitation(problem: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid params for "elicitation/create": ${problem}`);
}
