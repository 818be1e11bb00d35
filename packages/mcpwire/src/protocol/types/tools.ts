// Tools: definitions a server lists and the calls a client makes.

import type { BaseMetadata, Icons, JsonObject, MetaObject, PaginatedResult, Result } from './base.ts';
import type { ContentBlock } from './content.ts';
import type { TaskAugmentedRequestParams } from './tasks.ts';

/**
 * Hints about a tool's behaviour. All are untrusted hints; `destructiveHint` and `idempotentHint` only mean
 * something when `readOnlyHint` is false. Since 2025-03-26.
 */
export interface ToolAnnotations {
  title?: string;
  /** Default false. */
  readOnlyHint?: boolean;
  /** Default true. */
  destructiveHint?: boolean;
  /** Default false. */
  idempotentHint?: boolean;
  /** Default true. */
  openWorldHint?: boolean;
}

/** How a tool may run as a task. Since 2025-11-25; removed in 2026-07-28. */
export interface ToolExecution {
  /** Default `"forbidden"`. */
  taskSupport?: 'forbidden' | 'optional' | 'required';
}

/**
 * A JSON Schema whose root is an object, as `inputSchema` and `outputSchema` require. Other JSON Schema keywords
 * are allowed (2020-12 is the default dialect since 2025-11-25; `$schema` names another).
 */
export interface ToolSchema {
  $schema?: string;
  type: 'object';
  properties?: { [key: string]: JsonObject };
  required?: string[];
  [keyword: string]: unknown;
}

/** A tool the server offers. */
export interface Tool extends BaseMetadata, Icons {
  description?: string;
  inputSchema: ToolSchema;
  /** The schema `structuredContent` must match. Since 2025-06-18. */
  outputSchema?: ToolSchema;
  /** Since 2025-03-26. */
  annotations?: ToolAnnotations;
  /** Since 2025-11-25. */
  execution?: ToolExecution;
  /** Since 2025-06-18. */
  _meta?: MetaObject;
}

/** Params of `tools/call`. */
export interface CallToolRequestParams extends TaskAugmentedRequestParams {
  name: string;
  arguments?: JsonObject;
}

/**
 * Result of `tools/call`. A tool failure is a result with `isError: true`, not a protocol error.
 * When `structuredContent` is present, `content` should also carry it as JSON text for older clients.
 */
export interface CallToolResult extends Result {
  content: ContentBlock[];
  /** Since 2025-06-18. */
  structuredContent?: JsonObject;
  isError?: boolean;
}

/** Result of `tools/list`. */
export interface ListToolsResult extends PaginatedResult {
  tools: Tool[];
}
