// Stateless-era input (S26-MRTR): a handler's elicit/sample/listRoots are answered from the retry's
// `inputResponses` and the sealed earlier answers, or end the round with an InputRequiredResult.

import type { JsonObject } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import { hasCapability } from '../protocol/capabilities.ts';
import { StatelessErrorCode } from '../protocol/types/index.ts';
import type { InputBroker, InputMethod, InputOptions } from './context.ts';

/** What a round starts from: the answers it has, and what the verified requestState said. */
export interface RoundStart {
  readonly answers: JsonObject;
  /** The answers sealed by earlier rounds (kept in the next requestState). */
  readonly earlier: JsonObject | undefined;
  /** The keys the previous round asked for. */
  readonly asked: readonly string[];
  /** What the previous round carried. */
  readonly carried: string | undefined;
}

/** A first round's start (no answers, no state), shared by every first round: nothing writes to it. */
export const FIRST_ROUND: RoundStart = Object.freeze({
  answers: Object.freeze({}),
  earlier: undefined,
  asked: Object.freeze([]),
  carried: undefined,
});

/**
 * One round of one stateless request. The handler runs from the top each round: inputs it already
 * has resolve at once; the first missing one marks the round as needing input, and every input
 * asked for before the round closes (the same macrotask, so parallel asks are gathered) is listed.
 */
export class InputRound implements InputBroker {
  /** Input requests of this round that have no answer yet, by key. */
  readonly requested: Record<string, { method: InputMethod; params?: JsonObject }> = {};
  /** Answers the handler consumed this round, by key (sealed into the next requestState). */
  readonly consumed: JsonObject = {};
  #answers: JsonObject;
  #capabilities: JsonObject;
  #count = 0;
  /** Called (once, a macrotask after the first missing input) when the round should end. */
  #onNeeded: () => void;
  #isNeeded = false;

  /** The keys the previous round asked for, from the verified requestState. */
  readonly asked: readonly string[];
  /** What the previous round carried, from the verified requestState. */
  readonly carried: string | undefined;
  /** What the handler keeps for the next round (sealed with the input-required result). */
  toCarry: string | undefined;

  constructor(start: RoundStart, clientCapabilities: JsonObject, onNeeded: () => void) {
    this.asked = start.asked;
    this.carried = start.carried;
    this.#answers = start.answers;
    this.#capabilities = clientCapabilities;
    this.#onNeeded = onNeeded;
  }

  carry(value: string): void {
    this.toCarry = value;
  }

  /** The round is the broker handed to the handler's context. */
  request(method: InputMethod, params: JsonObject | undefined, options: InputOptions): Promise<JsonObject> {
    const key = options.key ?? `input-${this.#count}`;
    this.#count++;
    requireCapability(method, params, this.#capabilities);
    if (Object.hasOwn(this.#answers, key)) {
      const answer = checkAnswer(key, method, this.#answers[key]);
      this.consumed[key] = answer;
      return Promise.resolve(answer);
    }
    this.requested[key] = params === undefined ? { method } : { method, params };
    if (!this.#isNeeded) {
      this.#isNeeded = true;
      setTimeout(this.#onNeeded, 0);
    }
    return new Promise<JsonObject>(() => {});
  }
}

/** S26-MRTR-3: never ask for input the request did not declare; -32021 names what is missing. */
function requireCapability(method: InputMethod, params: JsonObject | undefined, caps: JsonObject): void {
  let required: JsonObject | undefined;
  if (method === 'elicitation/create') {
    const mode = params?.mode === 'url' ? 'url' : 'form';
    const elicitation = caps.elicitation as JsonObject | undefined;
    const isEmpty = elicitation !== undefined && Object.keys(elicitation).length === 0;
    const isDeclared =
      mode === 'form'
        ? isEmpty || hasCapability(caps, ['elicitation', 'form'])
        : hasCapability(caps, ['elicitation', 'url']);
    if (!isDeclared) required = { elicitation: mode === 'form' ? {} : { url: {} } };
  } else if (method === 'sampling/createMessage') {
    const needsTools = params?.tools !== undefined || params?.toolChoice !== undefined;
    if (!hasCapability(caps, ['sampling']) || (needsTools && !hasCapability(caps, ['sampling', 'tools']))) {
      required = { sampling: needsTools ? { tools: {} } : {} };
    }
  } else if (!hasCapability(caps, ['roots'])) {
    required = { roots: {} };
  }
  if (required) {
    throw new RpcError(
      StatelessErrorCode.MissingRequiredClientCapability,
      `Missing required client capability for "${method}"`,
      { requiredCapabilities: required },
    );
  }
}

/** S26-MRTR-10: a malformed answer is a JSON-RPC error, not a silent re-prompt. */
function checkAnswer(key: string, method: InputMethod, answer: unknown): JsonObject {
  const fail = (why: string): never => {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: inputResponses["${key}"] ${why}`);
  };
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
    return fail('must be an object');
  const record = answer as JsonObject;
  if (method === 'elicitation/create' && !['accept', 'decline', 'cancel'].includes(record.action as string)) {
    return fail('must be an ElicitResult with action "accept", "decline" or "cancel"');
  }
  if (
    method === 'sampling/createMessage' &&
    (typeof record.role !== 'string' || record.content === undefined)
  ) {
    return fail('must be a CreateMessageResult with role and content');
  }
  if (method === 'roots/list' && !Array.isArray(record.roots))
    return fail('must be a ListRootsResult with roots');
  return record;
}
