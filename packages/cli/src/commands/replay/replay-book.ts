// The mock's memory of one side's requests and their recorded answers, and the rule that picks the
// recorded answer for a new request (ReplayBook.answer). Shared by every connection the mock serves.

import {
  ErrorCode,
  type JsonObject,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from 'mcpwire';
import { capDepth } from '../../wire/json-depth.ts';
import { messagesOf, type Side, type Transcript } from '../../wire/transcript.ts';
import { canonicalParams, describeRequest, targetOf, withoutVolatileMeta } from './canonical-params.ts';
import { diffJson } from './json-diff.ts';
import { pairExchanges, progressTokenOf, type RecordedExchange } from './recorded-exchanges.ts';

/** What to send for one request: notifications, the response under the new id, notifications. */
export interface ReplayAnswer {
  before: JsonRpcNotification[];
  response: JsonRpcResponse;
  after: JsonRpcNotification[];
  /** The recorded exchange it came from; undefined for an error the book made up. */
  exchange?: RecordedExchange;
}

/**
 * Requests whose recorded answer stands for any params: the answer to "who are you" does not
 * change, and a handshake-era client may initialize once per HTTP session.
 */
const LIFECYCLE_METHODS: ReadonlySet<string> = new Set(['initialize', 'server/discover']);

/** The longest params text quoted in an error message. */
const QUOTE_LIMIT = 300;

/** The recorded exchanges of one asking side, each answered at most once before any is reused. */
export class ReplayBook {
  readonly #exchanges: readonly RecordedExchange[];
  readonly #used = new Set<number>();

  /** Keeps only the exchanges that have a recorded response. */
  constructor(exchanges: readonly RecordedExchange[]) {
    this.#exchanges = exchanges.filter((exchange) => exchange.response !== undefined);
  }

  /** The book of the requests `asker` sent in `transcript` (see pairExchanges). */
  static fromTranscript(transcript: Transcript, asker: Side): ReplayBook {
    return new ReplayBook(pairExchanges(messagesOf(transcript), asker));
  }

  /** How many answered requests the book holds. */
  get size(): number {
    return this.#exchanges.length;
  }

  /**
   * The answer to `request`, picked among recorded requests of the same method: the first unused
   * one with equal params (compared by canonicalParams); else the last one with equal params again;
   * else the first unused one naming the same target (tool, prompt, URI; any, for methods naming
   * none); for `initialize` and `server/discover`, the last successful one. A method never recorded
   * gets -32601 (`ping` gets `{}`, PING-1); recorded but unmatched, -32602 naming the closest
   * recorded request. Recorded progress is re-addressed to the request's own progress token, and
   * dropped when it has none (PROG-1). A request nested deeper than MAX_JSON_DEPTH is matched as
   * cut there, as the transcript's messages were read.
   */
  answer(incoming: JsonRpcRequest): ReplayAnswer {
    const request = capDepth(incoming);
    const candidates = this.#exchanges.filter((exchange) => exchange.request.method === request.method);
    if (candidates.length === 0)
      return request.method === 'ping'
        ? made({ jsonrpc: '2.0', id: request.id, result: {} })
        : made(this.#methodNotFound(request));
    const chosen = this.#choose(request, candidates);
    if (chosen === undefined) return made(noMatch(request, candidates));
    this.#used.add(chosen.index);
    const recorded = chosen.response!;
    const response: JsonRpcResponse =
      'error' in recorded
        ? { jsonrpc: '2.0', id: request.id, error: recorded.error }
        : { jsonrpc: '2.0', id: request.id, result: recorded.result };
    const token = progressTokenOf(request);
    return {
      before: readdress(chosen.before, token),
      response,
      after: readdress(chosen.after, token),
      exchange: chosen,
    };
  }

  /** A tool's inputSchema from the latest recorded `tools/list` result that lists it. */
  toolInputSchema(name: string): object | undefined {
    for (const exchange of [...this.#exchanges].reverse()) {
      if (exchange.request.method !== 'tools/list') continue;
      const result = (exchange.response as { result?: { tools?: unknown } }).result;
      const tools = Array.isArray(result?.tools) ? (result.tools as JsonObject[]) : [];
      const tool = tools.find((candidate) => candidate.name === name);
      if (typeof tool?.inputSchema === 'object' && tool.inputSchema !== null) return tool.inputSchema;
    }
    return undefined;
  }

  #choose(request: JsonRpcRequest, candidates: RecordedExchange[]): RecordedExchange | undefined {
    const isUnused = (exchange: RecordedExchange): boolean => !this.#used.has(exchange.index);
    const key = canonicalParams(request.params);
    const equal = candidates.filter((exchange) => canonicalParams(exchange.request.params) === key);
    const found = equal.find(isUnused) ?? equal.at(-1);
    if (found !== undefined) return found;
    if (LIFECYCLE_METHODS.has(request.method))
      return candidates.findLast((exchange) => 'result' in exchange.response!);
    const target = targetOf(request.method, request.params);
    return candidates.find(
      (exchange) =>
        isUnused(exchange) && targetOf(exchange.request.method, exchange.request.params) === target,
    );
  }

  #methodNotFound(request: JsonRpcRequest): JsonRpcResponse {
    const methods = [...new Set(this.#exchanges.map((exchange) => exchange.request.method))];
    return {
      jsonrpc: '2.0',
      id: request.id,
      error: {
        code: ErrorCode.MethodNotFound,
        message: `Method not found: the recording has no "${request.method}" request (it has ${methods.join(', ') || 'none'})`,
        data: { method: request.method, recordedMethods: methods },
      },
    };
  }
}

/** -32602 for a method that was recorded, but not with params this close. */
function noMatch(request: JsonRpcRequest, candidates: readonly RecordedExchange[]): JsonRpcResponse {
  const received = withoutVolatileMeta(request.params ?? {});
  let closest = candidates[0]!;
  let fewest = Infinity;
  for (const candidate of candidates) {
    const count = diffJson(withoutVolatileMeta(candidate.request.params ?? {}), received).length;
    if (count < fewest) [closest, fewest] = [candidate, count];
  }
  const params = withoutVolatileMeta(closest.request.params ?? {});
  // The 2026-07-28 envelope is the same on every request: the message quotes what tells them apart.
  const { _meta: _envelope, ...shown } = params;
  return {
    jsonrpc: '2.0',
    id: request.id,
    error: {
      code: ErrorCode.InvalidParams,
      message:
        `Invalid params: no recorded ${describeRequest(request.method, request.params)} request matched these params; ` +
        `the closest recorded one is ${describeRequest(closest.request.method, params)} ${quote(shown)}`,
      data: { closest: { method: closest.request.method, params } },
    },
  };
}

function made(response: JsonRpcResponse): ReplayAnswer {
  return { before: [], response, after: [] };
}

function readdress(notifications: readonly JsonRpcNotification[], token: unknown): JsonRpcNotification[] {
  const out: JsonRpcNotification[] = [];
  for (const notification of notifications) {
    if (notification.method !== 'notifications/progress') out.push(notification);
    else if (token !== undefined)
      out.push({ ...notification, params: { ...notification.params, progressToken: token } });
  }
  return out;
}

function quote(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length <= QUOTE_LIMIT ? text : `${text.slice(0, QUOTE_LIMIT)}...`;
}
