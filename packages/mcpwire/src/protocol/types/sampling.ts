// Sampling: a server asks the client's model for a completion (`sampling/createMessage`).

import type { JsonObject, MetaObject, Result, Role } from './base.ts';
import type { AudioContent, ContentBlock, ImageContent, TextContent } from './content.ts';
import type { TaskAugmentedRequestParams } from './tasks.ts';
import type { Tool } from './tools.ts';

/** A model's request to call a tool. Since 2025-11-25. */
export interface ToolUseContent {
  type: 'tool_use';
  /** Matched by the `toolUseId` of the ToolResultContent that answers it. */
  id: string;
  name: string;
  input: JsonObject;
  _meta?: MetaObject;
}

/** The result of a tool call, sent back to the model. Since 2025-11-25. */
export interface ToolResultContent {
  type: 'tool_result';
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
  _meta?: MetaObject;
}

/** Any block a sampling message may hold: text and image always, audio since 2025-03-26, tool use/result since 2025-11-25. */
export type SamplingMessageContentBlock =
  TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

/** One message of a sampling conversation. */
export interface SamplingMessage {
  role: Role;
  /** One block; an array of blocks since 2025-11-25. */
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  /** Since 2025-11-25. */
  _meta?: MetaObject;
}

/** A hint for model selection: a substring the client may match against model names. */
export interface ModelHint {
  name?: string;
}

/** The server's priorities for model selection; each priority is from 0 to 1. */
export interface ModelPreferences {
  /** In order of preference. */
  hints?: ModelHint[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** How the model may use the offered tools. Since 2025-11-25. */
export interface ToolChoice {
  /** Default `"auto"`. */
  mode?: 'auto' | 'required' | 'none';
}

/** Params of `sampling/createMessage`. */
export interface CreateMessageRequestParams extends TaskAugmentedRequestParams {
  messages: SamplingMessage[];
  modelPreferences?: ModelPreferences;
  systemPrompt?: string;
  /** Values other than `"none"` need the client's `sampling.context` capability (2025-11-25) and are soft-deprecated. */
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  maxTokens: number;
  stopSequences?: string[];
  /** Provider-specific metadata passed through to the model. */
  metadata?: JsonObject;
  /** Tools the model may call; needs the client's `sampling.tools` capability. Since 2025-11-25. */
  tools?: Tool[];
  /** Since 2025-11-25. */
  toolChoice?: ToolChoice;
}

/** Result of `sampling/createMessage`: the model's message. */
export interface CreateMessageResult extends Result, SamplingMessage {
  /** The name of the model that produced the message. */
  model: string;
  /** Why sampling stopped; `toolUse` since 2025-11-25; any other string is allowed. */
  stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse' | (string & Record<never, never>);
}
