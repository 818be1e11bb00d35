// Tools: registration, tools/list and tools/call (TOOL-*), with input and output schema checks.

import type { JsonObject } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import type {
  CallToolRequestParams,
  CallToolResult,
  ContentBlock,
  ListToolsResult,
  PaginatedRequestParams,
  Icon,
  Tool,
  ToolAnnotations,
  ToolExecution,
} from '../protocol/types/index.ts';
import type { JsonSchemaValidator } from '../validation/index.ts';
import {
  isStandardSchema,
  toJsonSchema,
  validateWith,
  type SchemaInput,
  type StandardSchemaV1,
} from '../validation/index.ts';
import type { RequestContext } from './context.ts';
import { paginate } from './pagination.ts';
import { Registry } from './registry.ts';

/** A tool as the server author describes it. Schemas may be Standard Schemas (zod, ...) or JSON Schema. */
export interface ToolDefinition<In extends SchemaInput = SchemaInput, Out extends SchemaInput = SchemaInput> {
  name: string;
  title?: string;
  description?: string;
  /** Defaults to `{type: "object"}` (a tool without parameters). */
  inputSchema?: In;
  outputSchema?: Out;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  /**
   * Whether the tool may run as a task (TASK-3: `taskSupport`, default forbidden), listed as is.
   * Served by an extension that handles tasks (`tasks()` of `mcpwire/extensions/tasks`).
   */
  execution?: ToolExecution;
  _meta?: JsonObject;
}

/** What a tool handler may return: a full result, plain text, or structured content (mirrored as text, TOOL-4). */
export type ToolReturn =
  CallToolResult | string | { structuredContent: unknown; content?: ContentBlock[]; isError?: boolean };

/** Arguments a tool handler receives: the schema's output type, or a plain object for JSON Schema. */
export type ToolArguments<In> = In extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<In>
  : Record<string, unknown>;

/** Serves one tool call. Throwing a plain Error yields an `isError: true` result; RpcError a protocol error. */
export type ToolHandler<In extends SchemaInput = SchemaInput> = (
  args: ToolArguments<In>,
  ctx: RequestContext,
) => ToolReturn | Promise<ToolReturn>;

// SEP-986 (TOOL-5): 1..128 characters of A-Z a-z 0-9 _ - .
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The tools of one server definition. */
export class Tools {
  readonly registry = new Registry<ToolDefinition, ToolHandler>('tool');
  #validator: JsonSchemaValidator | undefined;
  #wire = new WeakMap<ToolDefinition, Tool>();
  readonly #report: (error: Error) => void;

  /**
   * Without a validator, only tools whose schemas are Standard Schemas (or absent) can be registered.
   * `report` gets what a handler throws (the server's local error hook); default: nothing.
   */
  constructor(validator?: JsonSchemaValidator, { report }: { report?: (error: Error) => void } = {}) {
    this.#validator = validator;
    this.#report = report ?? (() => {});
  }

  /**
   * Registers a tool; throws TypeError for a name outside the spec's character set, and for a JSON
   * Schema with no validator to check it.
   */
  add<In extends SchemaInput, Out extends SchemaInput>(
    definition: ToolDefinition<In, Out>,
    handler: ToolHandler<In>,
  ) {
    if (!TOOL_NAME.test(definition.name)) {
      throw new TypeError(
        `Invalid tool name "${definition.name}": use 1-128 characters of A-Z, a-z, 0-9, "_", "-" and "."`,
      );
    }
    if (!this.#validator) {
      for (const [key, schema] of [
        ['inputSchema', definition.inputSchema],
        ['outputSchema', definition.outputSchema],
      ] as const) {
        if (schema !== undefined && !isStandardSchema(schema))
          throw new TypeError(
            `Tool "${definition.name}": its ${key} is JSON Schema, and this server has no validator for it; pass \`validator: createCfWorkerValidator()\` (mcpwire/validators/cfworker) or \`createAjvValidator()\` (mcpwire/validators/ajv), use a Standard Schema (zod, ...), or build on Server, which picks a validator`,
          );
      }
    }
    return this.registry.add(definition.name, definition as ToolDefinition, handler as ToolHandler);
  }

  /** The wire `inputSchema` of an enabled tool (what `tools/list` shows), or undefined. */
  inputSchemaOf(name: string): object | undefined {
    const entry = this.registry.get(name);
    return entry ? this.#toWire(entry.definition).inputSchema : undefined;
  }

  /** `tools/list`. */
  list(params: PaginatedRequestParams, pageSize: number): ListToolsResult {
    const tools = this.registry.list().map(({ definition }) => this.#toWire(definition));
    const { page, nextCursor } = paginate(tools, params.cursor, pageSize);
    return nextCursor === undefined ? { tools: page } : { tools: page, nextCursor };
  }

  /** `tools/call`: unknown tool is -32602; bad arguments and handler failures are isError results (SEP-1303). */
  call(params: CallToolRequestParams, ctx: RequestContext): Promise<CallToolResult> {
    const outcome = this.callPlain(params, ctx);
    return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
  }

  /**
   * `call`, except that the result of a synchronous handler whose arguments were checked synchronously
   * and that has no output schema comes back as a plain value, not a promise (the serve path's fast
   * path where nothing wraps `tools/call`, ServerCore.dispatch). Every other case is `call`'s promise.
   */
  callPlain(params: CallToolRequestParams, ctx: RequestContext): Promise<CallToolResult> | CallToolResult {
    // Not an async function: a synchronous handler without an output schema costs no promise here; a
    // synchronous throw still rejects.
    try {
      const { name } = params;
      const entry = this.registry.get(name);
      if (!entry) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: "${name}"`);
      const input = entry.definition.inputSchema;
      const args = params.arguments ?? {};
      // No inputSchema is `{type: "object"}`, which the inbound check has already made sure of.
      const validated = input
        ? validateWith(input, args, this.#validator!)
        : { ok: true as const, value: args };
      if (validated instanceof Promise)
        return validated.then((checked) => this.#run(name, entry, checked, ctx));
      return this.#run(name, entry, validated, ctx);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #run(
    name: string,
    { definition, handler }: { definition: ToolDefinition; handler: ToolHandler },
    checked: Awaited<ReturnType<typeof validateWith>>,
    ctx: RequestContext,
  ): Promise<CallToolResult> | CallToolResult {
    if (!checked.ok)
      return Promise.resolve(
        errorResult(`Invalid arguments for tool "${name}": ${checked.errors.join('; ')}`),
      );
    // Cancelled while the arguments were checked: no response will be sent, so do no work (CANCEL-5).
    if (ctx.isCancelled) ctx.signal.throwIfAborted();
    let returned: ToolReturn | PromiseLike<ToolReturn>;
    try {
      returned = handler(checked.value as Record<string, unknown>, ctx);
    } catch (error) {
      return this.#failed(name, error, ctx);
    }
    if (!isThenable(returned)) return this.#finish(name, definition, returned);
    return Promise.resolve(returned).then(
      (value) => this.#finish(name, definition, value),
      (error: unknown) => this.#failed(name, error, ctx),
    );
  }

  /** The result; a promise only when an output schema is checked. */
  #finish(
    name: string,
    definition: ToolDefinition,
    returned: ToolReturn,
  ): Promise<CallToolResult> | CallToolResult {
    const result = toResult(returned);
    if (definition.outputSchema && !result.isError)
      return this.#checkOutput(name, definition.outputSchema, result).then(() => result);
    return result;
  }

  /** A handler's failure: an RpcError or a cancellation is the answer; anything else an isError result. */
  #failed(name: string, error: unknown, ctx: RequestContext): Promise<CallToolResult> {
    if (error instanceof RpcError || ctx.isCancelled) return Promise.reject(error);
    const message = error instanceof Error ? error.message : String(error);
    // The client sees the message only; the operator gets the original, stack and cause (STYLE: errors).
    this.#report(new Error(`Tool "${name}" failed: ${message}`, { cause: error }));
    return Promise.resolve(errorResult(message));
  }

  /** The wire form of a registration (cached per definition object). */
  #toWire(definition: ToolDefinition): Tool {
    let tool = this.#wire.get(definition);
    if (tool) return tool;
    const { inputSchema, outputSchema, ...rest } = definition;
    tool = {
      ...rest,
      inputSchema: (inputSchema
        ? toJsonSchema(inputSchema, 'input')
        : { type: 'object' }) as Tool['inputSchema'],
    };
    if (outputSchema)
      tool.outputSchema = toJsonSchema(outputSchema, 'output') as NonNullable<Tool['outputSchema']>;
    this.#wire.set(definition, tool);
    return tool;
  }

  async #checkOutput(name: string, schema: SchemaInput, result: CallToolResult): Promise<void> {
    // TOOL-3: a tool with an outputSchema MUST return conforming structuredContent.
    if (result.structuredContent === undefined) {
      throw new RpcError(
        ErrorCode.InternalError,
        `Tool "${name}" has an outputSchema but returned no structuredContent`,
      );
    }
    const checked = await validateWith(schema, result.structuredContent, this.#validator!);
    if (!checked.ok) {
      throw new RpcError(
        ErrorCode.InternalError,
        `Tool "${name}" returned structuredContent that does not match its outputSchema: ${checked.errors.join('; ')}`,
      );
    }
  }
}

function toResult(returned: ToolReturn): CallToolResult {
  if (typeof returned === 'string') return { content: [{ type: 'text', text: returned }] };
  if (returned.content !== undefined) return returned as CallToolResult;
  // Structured output alone: mirror it as JSON text for clients without structured support (TOOL-4).
  const text = JSON.stringify(returned.structuredContent);
  return { ...returned, content: [{ type: 'text', text }] } as CallToolResult;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
