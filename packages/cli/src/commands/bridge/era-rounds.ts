// The 2026-07-28 front's requests to a shared handshake-era child (era-front.ts): plain forwarding,
// and calls that may ask for input (tools/call, prompts/get, resources/read), whose child requests
// (elicitation, sampling, roots) become `input_required` rounds. Our Server runs a handler again each
// round; the call upstream must run once (its side effects), so it is kept here across rounds, found
// again by its id, which the round's sealed `requestState` carries (`ctx.carryAcrossRounds`, read
// back verified as `ctx.carriedAcrossRounds`, so a client cannot name another client's call).

import { randomBytes } from 'node:crypto';
import { ErrorCode, RpcError, type JsonObject, type LoggingLevel } from 'mcpwire';
import type { Client } from 'mcpwire/client';
import { CLIENT_CAPABILITIES_META, INPUT_KEY_META, type RequestContext } from 'mcpwire/server';

/** How long a call waits for the client's next round by default (a person may be answering). */
export const DEFAULT_ROUND_TIMEOUT_MS = 5 * 60_000;

/** The input requests a child may make. */
export type ChildInputMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/** A call's id as the round's requestState carries it: 128 random bits, hex. */
const CALL_ID = /^[0-9a-f]{32}$/;

/** The bridge's own input keys (`mcpwire-bridge:<call id>:<n>`) start so; a child's key may not. */
const OWN_KEY_PREFIX = 'mcpwire-bridge:';

/** The longest input key of the child's that the bridge passes on. */
const MAX_CHILD_KEY_LENGTH = 256;

/** One input request of the child's, waiting for the client's answer. */
interface ChildInput {
  readonly key: string;
  readonly method: ChildInputMethod;
  readonly params: JsonObject | undefined;
  readonly resolve: (answer: JsonObject) => void;
  readonly reject: (error: Error) => void;
}

type Outcome = { result: JsonObject } | { error: unknown };

/** One call upstream, alive from its first round to its result. */
class PendingCall {
  readonly id = randomBytes(16).toString('hex');
  readonly abort = new AbortController();
  /** The child's input requests not answered yet, by key. */
  readonly waiting = new Map<string, ChildInput>();
  /** The running round's context (its stream); undefined between rounds. */
  ctx: RequestContext | undefined;
  outcome: Outcome | undefined;
  #count = 0;
  /** Every key this call's input requests had: a key is asked once per call (answers are sealed by key). */
  readonly #keys = new Set<string>();
  #wake: (() => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * The key of the child's next input request: the one it names (`_meta[INPUT_KEY_META]`, as an
   * mcpwire server does with the key its handler gave) when that is new in this call, else the
   * bridge's own `mcpwire-bridge:<call id>:<n>`.
   */
  nextKey(params: JsonObject | undefined): string {
    this.#count++;
    const named = childKey(params);
    const key =
      named !== undefined && !this.#keys.has(named) ? named : `${OWN_KEY_PREFIX}${this.id}:${this.#count}`;
    this.#keys.add(key);
    return key;
  }

  /** Resolves at the next input request or at the outcome. */
  changed(): Promise<void> {
    return new Promise((resolve) => (this.#wake = resolve));
  }

  notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  arm(timeoutMs: number, onExpired: () => void): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(onExpired, timeoutMs);
    this.#timer.unref?.();
  }

  disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Fails the child's waiting input requests and cancels the call upstream. */
  end(reason: string): void {
    this.disarm();
    for (const input of this.waiting.values()) input.reject(new Error(reason));
    this.waiting.clear();
    this.abort.abort(new Error(reason));
    this.outcome ??= { error: new RpcError(ErrorCode.InternalError, `mcpwire bridge: ${reason}`) };
    this.notify();
  }
}

/** Forwards requests to the child and keeps calls alive across input rounds. */
export class PendingCalls {
  readonly #timeoutMs: number;
  readonly #onNote: (text: string) => void;
  /** Calls that asked for input and wait for a round, by id. */
  readonly #calls = new Map<string, PendingCall>();
  /** Calls whose request upstream has not been answered: the child's input requests are theirs. */
  readonly #running = new Set<PendingCall>();
  /** Plain forwarded requests in flight (their contexts), for the child's log messages. */
  readonly #forwards = new Set<RequestContext>();

  constructor(timeoutMs: number, onNote: (text: string) => void) {
    this.#timeoutMs = timeoutMs;
    this.#onNote = onNote;
  }

  /** A request without input rounds, forwarded as it is (its envelope taken off). */
  async forward(
    client: Client,
    method: string,
    params: JsonObject,
    ctx: RequestContext,
  ): Promise<JsonObject> {
    this.#forwards.add(ctx);
    try {
      return await client.request(method, upstreamParams(params), {
        signal: ctx.signal,
        ...(ctx.meta.progressToken === undefined
          ? {}
          : { onProgress: (p) => void ctx.sendProgress(p.progress, progressOptions(p)) }),
      });
    } finally {
      this.#forwards.delete(ctx);
    }
  }

  /**
   * One round of a call that may ask for input: the first round starts the call upstream; a later
   * one (its requestState names the call) answers the child's waiting input requests from the
   * round's `inputResponses`. Resolves with the child's result, or never (the round then ends with
   * `input_required`, the library's doing, when an input request has no answer yet).
   */
  async run(client: Client, method: string, params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
    const call = this.#callOf(client, method, params, ctx);
    call.disarm();
    call.ctx = ctx;
    // The client gave up on a live round (cancelled, or its connection closed): so does the call.
    // A parked call's round is over by then (ctx cleared), and waits for the next one instead.
    ctx.signal.addEventListener(
      'abort',
      () => {
        if (call.ctx !== ctx) return;
        this.#calls.delete(call.id);
        call.end('the client cancelled the request');
      },
      { once: true },
    );
    for (;;) {
      if (call.outcome !== undefined) {
        this.#calls.delete(call.id);
        call.ctx = undefined;
        if ('error' in call.outcome) throw call.outcome.error;
        return call.outcome.result;
      }
      const waiting = [...call.waiting.values()];
      if (waiting.length === 0) {
        await call.changed();
        // The round takes what the child asked in one turn (its writes of a tick arrive as one
        // chunk): the rest of that chunk is dispatched before the check phase of this loop turn.
        await endOfReadTurn();
        continue;
      }
      // Until the client answers (a later round), the call waits here, for the round timeout at most,
      // parked: no round of its own is live, so the child's next input request is not its.
      this.#calls.set(call.id, call);
      ctx.carryAcrossRounds(call.id);
      call.ctx = undefined;
      call.arm(this.#timeoutMs, () => this.#expire(call));
      await Promise.all(waiting.map((input) => this.#ask(call, ctx, input)));
      call.disarm();
      call.ctx = ctx;
    }
  }

  /**
   * The child asks for input: the one call running upstream in a live round takes it as its next
   * round. With none, or several (stdio does not say which request a server's request belongs to),
   * it is refused.
   */
  askClient(method: ChildInputMethod, params: JsonObject | undefined): Promise<JsonObject> {
    // Calls parked between rounds wait for their client, not for the child: not candidates.
    const live = [...this.#running].filter((candidate) => candidate.ctx !== undefined);
    if (live.length !== 1) {
      const why =
        live.length === 0
          ? 'no call is running'
          : `${live.length} calls are running and stdio does not say which one asks`;
      this.#onNote(`refused the server's ${method}: ${why}`);
      return Promise.reject(
        new RpcError(ErrorCode.InternalError, `mcpwire bridge: cannot pass ${method} on: ${why}`),
      );
    }
    const [call] = live;
    return new Promise((resolve, reject) => {
      const key = call!.nextKey(params);
      call!.waiting.set(key, { key, method, params, resolve, reject });
      call!.notify();
    });
  }

  /** A log message of the child's goes to the one request in flight, at that request's own level. */
  log(params: { level: LoggingLevel; data?: unknown; logger?: string }): void {
    const contexts = [...this.#forwards];
    for (const call of this.#running) if (call.ctx !== undefined) contexts.push(call.ctx);
    if (contexts.length !== 1) return;
    void contexts[0]!.log(params.level, params.data, params.logger);
  }

  /** Cancels every call (the child is gone, or the bridge stops). */
  closeAll(reason: string): void {
    for (const call of [...this.#running, ...this.#calls.values()]) call.end(reason);
    this.#calls.clear();
    this.#running.clear();
  }

  #callOf(client: Client, method: string, params: JsonObject, ctx: RequestContext): PendingCall {
    const id = ctx.carriedAcrossRounds;
    if (id !== undefined && CALL_ID.test(id)) {
      const call = this.#calls.get(id);
      if (call === undefined)
        throw new RpcError(
          ErrorCode.InvalidParams,
          `mcpwire bridge: the call this requestState continues is over (answered, cancelled, or not continued within ${Math.round(this.#timeoutMs / 1000)} s); send the request again without requestState and inputResponses`,
        );
      return call;
    }
    const call = new PendingCall();
    this.#running.add(call);
    client
      .request(method, withClientCapabilities(upstreamParams(params), ctx), {
        signal: call.abort.signal,
        onProgress: (p) => void call.ctx?.sendProgress(p.progress, progressOptions(p)),
      })
      .then(
        (result) => (call.outcome ??= { result }),
        (error: unknown) => (call.outcome ??= { error }),
      )
      .finally(() => {
        this.#running.delete(call);
        call.notify();
      });
    return call;
  }

  /** Asks the client for one input in this round; its answer goes to the child. */
  async #ask(call: PendingCall, ctx: RequestContext, input: ChildInput): Promise<void> {
    let answer: JsonObject;
    try {
      answer = await askRound(ctx, input);
    } catch (error) {
      // The client cannot answer (a capability it did not declare, a malformed answer): the call fails.
      call.waiting.delete(input.key);
      input.reject(error instanceof Error ? error : new Error(String(error)));
      this.#calls.delete(call.id);
      call.end('the client could not answer the server');
      throw error;
    }
    call.waiting.delete(input.key);
    input.resolve(answer);
  }

  #expire(call: PendingCall): void {
    this.#calls.delete(call.id);
    this.#onNote(`a call waited ${Math.round(this.#timeoutMs / 1000)} s for its next round; cancelled`);
    call.end(`the client did not answer within ${Math.round(this.#timeoutMs / 1000)} s`);
  }
}

/** The input key a child's request names in `_meta[INPUT_KEY_META]`, if it is one the bridge can pass on. */
function childKey(params: JsonObject | undefined): string | undefined {
  const meta = params?._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const key = (meta as JsonObject)[INPUT_KEY_META];
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_CHILD_KEY_LENGTH) return undefined;
  return key.startsWith(OWN_KEY_PREFIX) ? undefined : key;
}

/** Resolves once the messages read in this event loop turn have been dispatched. */
function endOfReadTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function askRound(ctx: RequestContext, input: ChildInput): Promise<JsonObject> {
  const options = { key: input.key };
  switch (input.method) {
    case 'elicitation/create':
      return ctx.elicit(input.params as never, options) as Promise<never>;
    case 'sampling/createMessage':
      return ctx.sample(input.params as never, options) as Promise<never>;
    case 'roots/list':
      return ctx.listRoots(options) as Promise<never>;
  }
}

/**
 * The params of a call that may ask for input, naming the capabilities of the client it serves in
 * `_meta[CLIENT_CAPABILITIES_META]`: the shared child negotiated the bridge's (all three), and an
 * mcpwire server's handler then sees this client's instead, so it asks only for what the client can
 * answer (S26-MRTR-3). A child that asks anyway gets the round's -32021 (S26-META-4).
 */
function withClientCapabilities(params: JsonObject, ctx: RequestContext): JsonObject {
  const meta = params._meta;
  const kept = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : {};
  return { ...params, _meta: { ...kept, [CLIENT_CAPABILITIES_META]: ctx.clientCapabilities as JsonObject } };
}

/** The request's params for a handshake-era server: the 2026-07-28 envelope and progress token taken off `_meta`. */
export function upstreamParams(params: JsonObject): JsonObject {
  const meta = params._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return params;
  const kept: JsonObject = {};
  for (const [key, value] of Object.entries(meta))
    if (!key.startsWith('io.modelcontextprotocol/') && key !== 'progressToken') kept[key] = value;
  const { _meta: _, ...rest } = params;
  return Object.keys(kept).length === 0 ? rest : { ...rest, _meta: kept };
}

function progressOptions(p: { total?: number; message?: string }): { total?: number; message?: string } {
  return {
    ...(p.total === undefined ? {} : { total: p.total }),
    ...(p.message === undefined ? {} : { message: p.message }),
  };
}
