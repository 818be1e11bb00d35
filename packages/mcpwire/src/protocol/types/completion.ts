// Completion: argument suggestions for prompts and resource templates (`completion/complete`).

import type { BaseMetadata, RequestParams, Result } from './base.ts';

/** Refers to a prompt by name. */
export interface PromptReference extends BaseMetadata {
  type: 'ref/prompt';
}

/**
 * Refers to a resource template by its URI template. Called `ResourceReference` before 2025-06-18; the wire
 * shape is unchanged.
 */
export interface ResourceTemplateReference {
  type: 'ref/resource';
  uri: string;
}

/** Params of `completion/complete`. */
export interface CompleteRequestParams extends RequestParams {
  ref: PromptReference | ResourceTemplateReference;
  /** The argument being completed and what the user typed so far. */
  argument: { name: string; value: string };
  /** Arguments already resolved. Since 2025-06-18. */
  context?: { arguments?: { [key: string]: string } };
}

/** Result of `completion/complete`: at most 100 values. */
export interface CompleteResult extends Result {
  completion: {
    values: string[];
    /** How many values exist in all, which may exceed `values.length`. */
    total?: number;
    hasMore?: boolean;
  };
}
