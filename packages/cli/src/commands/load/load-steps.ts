// The steps `mcpwire load` sends: each scenario step (or --call) checked against the server (the
// tool or prompt exists, the arguments pass the schema with the templates filled in once) and
// compiled into an object whose `send` builds only what a template changes.

import type { Client } from 'mcpwire/client';
import type { CallToolResult, JsonObject } from 'mcpwire';
import {
  declaredTypes,
  findArgumentProblems,
  findPromptArgumentProblems,
  propertiesOf,
  toCheckableSchema,
} from '../../arguments/argument-check.ts';
import { ArgumentsError, UsageError } from '../../exit-code.ts';
import { findPrompt, findTool, requireCapability } from '../../target/server-lookup.ts';
import type { LoadRandom } from './random.ts';
import type { ScenarioStep } from './scenario.ts';
import { compileObject, compileValue, TemplateError, type CompiledValue } from './template.ts';

/** One kind of request the run sends, with its weight in the mix. */
export interface LoadStep {
  /** `call echo`, `read file:///x/{{i}}`, `get greeting`. */
  readonly label: string;
  readonly weight: number;
  /**
   * Sends request `i` of worker `worker` on `client`; resolves with the message of a tool result
   * that says isError, else undefined; rejects as the client's request does.
   */
  send(client: Client, i: number, worker: number): Promise<string | undefined>;
  /** The wire engine's view: the method, and the name or URI its template is keyed by (step-wire.ts). */
  readonly wire: StepWire;
}

/** What the wire engine needs of a step: its method and params, and how to judge its result. */
export interface StepWire {
  readonly method: 'tools/call' | 'resources/read' | 'prompts/get';
  /** The tool or prompt name, or the URI when it has no template; undefined for a templated URI. */
  readonly name: string | undefined;
  /** The params of request `i` of worker `worker` when a template changes them; undefined: always the first ones. */
  paramsOf(i: number, worker: number): JsonObject | undefined;
  /** The message of a tool result that says isError, else undefined. */
  failureOf(result: JsonObject): string | undefined;
}

/**
 * The steps of `scenario`, checked against the server behind `client` (UsageError or ArgumentsError,
 * exit 2, naming the step, before anything is sent) and compiled.
 */
export async function compileSteps(
  scenario: readonly ScenarioStep[],
  client: Client,
  random: LoadRandom,
  signal: AbortSignal,
): Promise<LoadStep[]> {
  const steps: LoadStep[] = [];
  for (const step of scenario) {
    if (step.kind === 'call') steps.push(await compileCall(step, client, random, signal));
    else if (step.kind === 'get') steps.push(await compileGet(step, client, random, signal));
    else {
      requireCapability(client, 'resources', 'resources to read');
      const uri = compiled(step.path, 'read', () => compileValue(step.target, random));
      steps.push(new ReadStep(`read ${step.target}`, step.weight, uri));
    }
  }
  return steps;
}

async function compileCall(
  step: ScenarioStep,
  client: Client,
  random: LoadRandom,
  signal: AbortSignal,
): Promise<LoadStep> {
  const tool = await findTool(client, step.target, signal);
  const numericKeys = numericKeysOf(tool.inputSchema);
  const args = compiled(step.path, 'arguments', () => compileObject(step.arguments, random, { numericKeys }));
  const schema = toCheckableSchema(tool.inputSchema);
  const problems = schema === undefined ? [] : findArgumentProblems(sampleOf(args) as JsonObject, schema);
  if (problems.length > 0)
    throw new ArgumentsError(problems.map((problem) => `${step.path} (tool "${step.target}"): ${problem}`));
  return new CallStep(step.target, step.weight, args);
}

async function compileGet(
  step: ScenarioStep,
  client: Client,
  random: LoadRandom,
  signal: AbortSignal,
): Promise<LoadStep> {
  const prompt = await findPrompt(client, step.target, signal);
  const args = compiled(step.path, 'arguments', () => compileObject(step.arguments, random));
  const problems = findPromptArgumentProblems(prompt, sampleOf(args) as Record<string, string>);
  if (problems.length > 0)
    throw new ArgumentsError(problems.map((problem) => `${step.path} (prompt "${step.target}"): ${problem}`));
  return new GetStep(step.target, step.weight, args);
}

/**
 * The properties `inputSchema` types as a number and not as text: there a value that is one
 * placeholder (`{{random 1 9}}`) is sent as a number.
 */
export function numericKeysOf(inputSchema: unknown): Set<string> {
  const properties = propertiesOf(inputSchema);
  return new Set(
    Object.keys(properties).filter((key) => {
      const types = declaredTypes(properties[key]);
      return !types.includes('string') && (types.includes('number') || types.includes('integer'));
    }),
  );
}

/** Runs `compile`, a template problem becoming a UsageError naming `path.field`. */
function compiled(path: string, field: string, compile: () => CompiledValue): CompiledValue {
  try {
    return compile();
  } catch (error) {
    if (error instanceof TemplateError) throw new UsageError(`${path}.${field}: ${error.message}`);
    throw error;
  }
}

/** The value of request 0 of worker 0: what the checks judge. */
function sampleOf(value: CompiledValue): unknown {
  return 'build' in value ? value.build(0, 0) : value.constant;
}

class CallStep implements LoadStep {
  readonly label: string;
  readonly weight: number;
  readonly #name: string;
  readonly #args: CompiledValue;
  /** The params every request sends when no argument has a template. */
  readonly #constant: { name: string; arguments: JsonObject } | undefined;

  constructor(name: string, weight: number, args: CompiledValue) {
    this.label = `call ${name}`;
    this.weight = weight;
    this.#name = name;
    this.#args = args;
    this.#constant = 'constant' in args ? { name, arguments: args.constant as JsonObject } : undefined;
    this.wire = {
      method: 'tools/call',
      name,
      paramsOf: (i, worker) => (this.#constant === undefined ? this.#paramsOf(i, worker) : undefined),
      failureOf: (result) =>
        result.isError === true ? toolErrorMessage(result as unknown as CallToolResult) : undefined,
    };
  }

  readonly wire: StepWire;

  #paramsOf(i: number, worker: number): JsonObject {
    return {
      name: this.#name,
      arguments: (this.#args as { build: (i: number, worker: number) => unknown }).build(
        i,
        worker,
      ) as JsonObject,
    };
  }

  async send(client: Client, i: number, worker: number): Promise<string | undefined> {
    const params = this.#constant ?? {
      name: this.#name,
      arguments: (this.#args as { build: (i: number, worker: number) => unknown }).build(
        i,
        worker,
      ) as JsonObject,
    };
    const result = await client.callTool(params);
    return result.isError === true ? toolErrorMessage(result) : undefined;
  }
}

class ReadStep implements LoadStep {
  readonly label: string;
  readonly weight: number;
  readonly #uri: CompiledValue;
  readonly #constant: { uri: string } | undefined;

  constructor(label: string, weight: number, uri: CompiledValue) {
    this.label = label;
    this.weight = weight;
    this.#uri = uri;
    this.#constant = 'constant' in uri ? { uri: uri.constant as string } : undefined;
    this.wire = {
      method: 'resources/read',
      name: this.#constant?.uri,
      paramsOf: (i, worker) =>
        this.#constant === undefined
          ? { uri: (this.#uri as { build: (i: number, w: number) => unknown }).build(i, worker) as string }
          : undefined,
      failureOf: () => undefined,
    };
  }

  readonly wire: StepWire;

  async send(client: Client, i: number, worker: number): Promise<undefined> {
    const params = this.#constant ?? {
      uri: (this.#uri as { build: (i: number, w: number) => unknown }).build(i, worker) as string,
    };
    await client.readResource(params);
    return undefined;
  }
}

class GetStep implements LoadStep {
  readonly label: string;
  readonly weight: number;
  readonly #name: string;
  readonly #args: CompiledValue;
  readonly #constant: { name: string; arguments: Record<string, string> } | undefined;

  constructor(name: string, weight: number, args: CompiledValue) {
    this.label = `get ${name}`;
    this.weight = weight;
    this.#name = name;
    this.#args = args;
    this.#constant =
      'constant' in args ? { name, arguments: args.constant as Record<string, string> } : undefined;
    this.wire = {
      method: 'prompts/get',
      name,
      paramsOf: (i, worker) =>
        this.#constant === undefined
          ? {
              name,
              arguments: (this.#args as { build: (i: number, w: number) => unknown }).build(
                i,
                worker,
              ) as JsonObject,
            }
          : undefined,
      failureOf: () => undefined,
    };
  }

  readonly wire: StepWire;

  async send(client: Client, i: number, worker: number): Promise<undefined> {
    const params = this.#constant ?? {
      name: this.#name,
      arguments: (this.#args as { build: (i: number, w: number) => unknown }).build(i, worker) as Record<
        string,
        string
      >,
    };
    await client.getPrompt(params);
    return undefined;
  }
}

/** The first text of a failed tool result (else its content as JSON), cut at 500 characters. */
function toolErrorMessage(result: CallToolResult): string {
  const text = result.content.find((block) => block.type === 'text');
  const message = text !== undefined && 'text' in text ? String(text.text) : JSON.stringify(result.content);
  return message.length > 500 ? `${message.slice(0, 497)}...` : message;
}
