// Prompts: templates a server lists and the messages `prompts/get` renders from them.

import type {
  BaseMetadata,
  Icons,
  MetaObject,
  PaginatedResult,
  RequestParams,
  Result,
  Role,
} from './base.ts';
import type { ContentBlock } from './content.ts';

/** An argument a prompt accepts. */
export interface PromptArgument extends BaseMetadata {
  description?: string;
  required?: boolean;
}

/** A prompt the server offers. */
export interface Prompt extends BaseMetadata, Icons {
  description?: string;
  arguments?: PromptArgument[];
  /** Since 2025-06-18. */
  _meta?: MetaObject;
}

/** One message of a rendered prompt: exactly one content block, no `_meta`. */
export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

/** Params of `prompts/get`. */
export interface GetPromptRequestParams extends RequestParams {
  name: string;
  arguments?: { [key: string]: string };
}

/** Result of `prompts/get`. */
export interface GetPromptResult extends Result {
  description?: string;
  messages: PromptMessage[];
}

/** Result of `prompts/list`. */
export interface ListPromptsResult extends PaginatedResult {
  prompts: Prompt[];
}
