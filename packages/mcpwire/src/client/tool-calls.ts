// The client's tool calls: `tools/list` (one page or all of them) remembering each tool's output
// schema, and `tools/call` checking a result's `structuredContent` against it (TOOL-3).

import type { RequestOptions } from '../protocol/session.ts';
import type {
  CallToolRequestParams,
  CallToolResult,
  ListToolsResult,
  PaginatedRequestParams,
  Tool,
} from '../protocol/types/index.ts';
import type { JsonSchemaValidator } from '../validation/index.ts';
import type { ListAllOptions } from './client-options.ts';
import { collectList, readPage } from './pagination.ts';
import { ToolOutputSchemas } from './tool-output.ts';

/** Sends one typed tools request through the client's middleware chain, in the connection's era. */
export interface ToolRequests {
  list(
    params: PaginatedRequestParams | undefined,
    options: RequestOptions | undefined,
  ): Promise<ListToolsResult>;
  call(params: CallToolRequestParams, options: RequestOptions): Promise<CallToolResult>;
}

/**
 * The tool calls of one Client, over all its connections. The remembered output schemas are
 * dropped on `invalidate()` (a new connection, `notifications/tools/list_changed`).
 */
export class ToolCalls {
  #send: ToolRequests;
  #outputSchemas: ToolOutputSchemas;

  constructor(
    send: ToolRequests,
    options: { validator: JsonSchemaValidator; onListingFailure: (error: Error) => void },
  ) {
    this.#send = send;
    this.#outputSchemas = new ToolOutputSchemas(options.validator, {
      onListingFailure: options.onListingFailure,
    });
  }

  /** Forgets every remembered output schema: the next checked call lists the tools again. */
  invalidate(): void {
    this.#outputSchemas.invalidate();
  }

  /** `tools/list`, one page. Remembers the tools' output schemas for `call`. */
  async list(params?: PaginatedRequestParams, options?: RequestOptions): Promise<ListToolsResult> {
    const generation = this.#outputSchemas.generation;
    const result = await this.#send.list(params, options);
    const page = readPage<Tool>(result, { method: 'tools/list', key: 'tools' });
    const isWholeList = params?.cursor === undefined && page.nextCursor === undefined;
    this.#outputSchemas.remember(page.items, { generation, isWholeList });
    return result;
  }

  /** Every tool, following `nextCursor` (PAGE-2). */
  async listAll(options: ListAllOptions = {}): Promise<Tool[]> {
    const generation = this.#outputSchemas.generation;
    const list = { method: 'tools/list', key: 'tools', maxPages: options.maxPages };
    const tools = (await collectList((params) => this.list(params, options), list)) as Tool[];
    this.#outputSchemas.remember(tools, { generation, isWholeList: true });
    return tools;
  }

  /** `tools/call`, its `structuredContent` checked against the tool's output schema (see Client.callTool). */
  async call(params: CallToolRequestParams, options: RequestOptions = {}): Promise<CallToolResult> {
    // Task-augmented calls answer with a CreateTaskResult, which has nothing to check.
    const isChecked = params.task === undefined;
    // No signal for the listing: it is shared, so one caller's abort must not fail it for others.
    const listOptions = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
    const lookup = isChecked
      ? this.#outputSchemas.ensureKnown(params.name, () => this.listAll(listOptions))
      : undefined;
    const result = await this.#send.call(params, options);
    // A stateless-era server may answer with a task instead (S26-TASK-2): nothing to check either.
    if (!isChecked || (result.resultType !== undefined && result.resultType !== 'complete')) return result;
    await lookup;
    await this.#outputSchemas.check(params.name, result);
    return result;
  }
}
