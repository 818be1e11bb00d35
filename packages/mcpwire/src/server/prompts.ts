// Prompts: registration, prompts/list and prompts/get (PROMPT-*), and argument completion (COMP-2).

import type { JsonObject } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import type {
  GetPromptRequestParams,
  GetPromptResult,
  Icon,
  ListPromptsResult,
  PaginatedRequestParams,
  Prompt,
  PromptArgument,
  PromptMessage,
} from '../protocol/types/index.ts';
import type { RequestContext } from './context.ts';
import { paginate } from './pagination.ts';
import { Registry, type Registration } from './registry.ts';
import type { Completer } from './resources.ts';

/** A prompt as the server author describes it. */
export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: JsonObject;
  arguments?: PromptArgument[];
  /** Completers keyed by argument name; each must name a declared argument. */
  complete?: Record<string, Completer>;
}

/**
 * What a prompt handler may return: a full result, the messages alone, or text (one user message).
 * Without a `description` of its own, the result gets the definition's.
 */
export type PromptReturn = GetPromptResult | PromptMessage[] | string;

/**
 * Renders one `prompts/get`. `args` holds only declared arguments, all strings, every required one
 * present. RpcError passes through; anything else thrown becomes -32603.
 */
export type PromptHandler = (
  args: Record<string, string>,
  ctx: RequestContext,
) => PromptReturn | Promise<PromptReturn>;

/** The prompts of one server definition. */
export class Prompts {
  readonly registry = new Registry<PromptDefinition, PromptHandler>('prompt');
  #wire = new WeakMap<PromptDefinition, Prompt>();

  /**
   * Registers a prompt. Throws TypeError for an empty name, a repeated argument name, or a completer
   * for an undeclared argument; Error if the name is taken. `update` may not change the name.
   */
  add(definition: PromptDefinition, handler: PromptHandler): Registration<PromptDefinition> {
    const { name } = definition;
    checkDefinition(definition, name);
    const registration = this.registry.add(name, definition, handler);
    let current = definition;
    return {
      ...registration,
      update: (changes) => {
        const next = { ...current, ...changes };
        checkDefinition(next, name);
        registration.update(changes);
        current = next;
      },
    };
  }

  /** `prompts/list`, in registration order. */
  list(params: PaginatedRequestParams, pageSize: number): ListPromptsResult {
    const prompts = this.registry.list().map(({ definition }) => this.#toWire(definition));
    const { page, nextCursor } = paginate(prompts, params.cursor, pageSize);
    return nextCursor === undefined ? { prompts: page } : { prompts: page, nextCursor };
  }

  /**
   * `prompts/get`: unknown prompt, non-string or undeclared argument values, and missing required
   * arguments are -32602 (PROMPT-2, PROMPT-4).
   */
  async get(params: GetPromptRequestParams, ctx: RequestContext): Promise<GetPromptResult> {
    const name: unknown = params.name;
    const entry = typeof name === 'string' ? this.registry.get(name) : undefined;
    if (!entry) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${JSON.stringify(name)}`);
    const { definition, handler } = entry;
    const args = checkArguments(definition, params.arguments ?? {});
    const returned = await handler(args, ctx);
    return toResult(returned, definition);
  }

  /**
   * Completes one argument of the prompt named `name` (a `ref/prompt`). Unknown prompt or
   * undeclared argument: -32602. An argument without a completer: no values.
   */
  async completeArgument(
    name: string,
    argument: { name: string; value: string },
    context: { arguments: Record<string, string> },
    ctx: RequestContext,
  ): Promise<string[]> {
    const entry = this.registry.get(name);
    if (!entry) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params for "completion/complete": unknown prompt "${name}"`,
      );
    }
    const { definition } = entry;
    if (!definition.arguments?.some((declared) => declared.name === argument.name)) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params for "completion/complete": prompt "${name}" has no argument "${argument.name}"`,
      );
    }
    const completers = definition.complete;
    // Own properties only: an argument named `constructor` must not find Object.prototype's.
    const completer =
      completers && Object.hasOwn(completers, argument.name) ? completers[argument.name] : undefined;
    return completer ? completer(argument.value, context, ctx) : [];
  }

  /** The wire form of a registration: the definition without `complete` (cached per definition object). */
  #toWire(definition: PromptDefinition): Prompt {
    let prompt = this.#wire.get(definition);
    if (!prompt) {
      const { complete: _complete, ...rest } = definition;
      prompt = rest;
      this.#wire.set(definition, prompt);
    }
    return prompt;
  }
}

function checkDefinition(definition: PromptDefinition, registered: string): void {
  if (typeof definition.name !== 'string' || definition.name === '') {
    throw new TypeError('Invalid prompt: "name" must be a non-empty string');
  }
  if (definition.name !== registered) {
    throw new TypeError(`Cannot change the name of prompt "${registered}": remove it and add a new one`);
  }
  const declared = new Set<string>();
  for (const argument of definition.arguments ?? []) {
    if (declared.has(argument.name)) {
      throw new TypeError(`Prompt "${registered}" declares argument "${argument.name}" twice`);
    }
    declared.add(argument.name);
  }
  for (const name of Object.keys(definition.complete ?? {})) {
    if (!declared.has(name)) {
      throw new TypeError(
        `Prompt "${registered}" has a completer for "${name}", which is not a declared argument`,
      );
    }
  }
}

/** PROMPT-2: values are strings; PROMPT-5: only declared arguments, every required one present. */
function checkArguments(definition: PromptDefinition, values: unknown): Record<string, string> {
  const fail = (problem: string): RpcError =>
    new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params for "prompts/get" (prompt "${definition.name}"): ${problem}`,
    );
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw fail('expected "arguments" to be an object');
  }
  const declared = definition.arguments ?? [];
  const entries: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(values)) {
    if (!declared.some((argument) => argument.name === key)) throw fail(`unknown argument "${key}"`);
    if (typeof value !== 'string') {
      throw fail(`argument "${key}" must be a string, received ${value === null ? 'null' : typeof value}`);
    }
    entries.push([key, value]);
  }
  // fromEntries defines own properties, so a key such as "__proto__" cannot reach the prototype.
  const args: Record<string, string> = Object.fromEntries(entries);
  const missing = declared
    .filter((argument) => argument.required === true && !Object.hasOwn(args, argument.name))
    .map((argument) => `"${argument.name}"`);
  if (missing.length > 0) {
    throw fail(`missing required argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  }
  return args;
}

function toResult(returned: PromptReturn, definition: PromptDefinition): GetPromptResult {
  const { description } = definition;
  const withDescription = (result: GetPromptResult): GetPromptResult =>
    description === undefined || result.description !== undefined ? result : { description, ...result };
  if (typeof returned === 'string') {
    return withDescription({ messages: [{ role: 'user', content: { type: 'text', text: returned } }] });
  }
  if (Array.isArray(returned)) return withDescription({ messages: returned });
  if (typeof returned !== 'object' || returned === null || !Array.isArray(returned.messages)) {
    // A plain Error: the peer answers -32603 and keeps this for the logs.
    throw new Error(
      `Prompt "${definition.name}" returned ${returned === null ? 'null' : typeof returned}; expected a GetPromptResult, messages or a string`,
    );
  }
  return withDescription(returned);
}
