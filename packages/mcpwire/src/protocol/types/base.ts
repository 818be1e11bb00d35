// The shared MCP building blocks every other wire type is made of: JSON, `_meta`, params, results, metadata.
// One superset for the handshake-era revisions 2024-11-05 .. 2025-11-25; fields added later say since when.

import type { JsonObject, RequestId } from '../../jsonrpc/message.ts';

export type { JsonObject, RequestId };

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** An open `_meta` object: keys follow the spec's `_meta` key-format rules, values are any JSON. */
export interface MetaObject {
  [key: string]: unknown;
}

/** A token the requester puts in `_meta.progressToken` to receive `notifications/progress`; unique among active requests. */
export type ProgressToken = string | number;

/** An opaque pagination position chosen by the server; clients must not parse or invent one. */
export type Cursor = string;

/** Who a message or annotation is meant for. */
export type Role = 'user' | 'assistant';

/** Base of every request's `params`; `_meta.progressToken` opts in to progress notifications. */
export interface RequestParams {
  _meta?: { progressToken?: ProgressToken; [key: string]: unknown };
}

/** Base of every notification's `params`. */
export interface NotificationParams {
  _meta?: MetaObject;
}

/** Base of every result; results are open objects. */
export interface Result {
  _meta?: MetaObject;
  [key: string]: unknown;
}

/** A result that carries nothing but success (ping, subscribe, unsubscribe, logging/setLevel). */
export type EmptyResult = Result;

/** Params of a list request: `cursor` continues from a previous page's `nextCursor`. */
export interface PaginatedRequestParams extends RequestParams {
  cursor?: Cursor;
}

/** A page of a list result; `nextCursor` is absent on the last page. */
export interface PaginatedResult extends Result {
  nextCursor?: Cursor;
}

/**
 * Hints for how a client should use or show an object. Since 2025-03-26 as a named type; 2024-11-05 had the
 * same `audience` and `priority` inline (its `Annotated` base).
 */
export interface Annotations {
  audience?: Role[];
  /** 0 (least important) to 1 (most important). */
  priority?: number;
  /** ISO 8601 timestamp of the last modification. Since 2025-06-18. */
  lastModified?: string;
}

/** An icon a client may show for an implementation, tool, prompt or resource. Since 2025-11-25. */
export interface Icon {
  /** An https URL or a `data:` URI. */
  src: string;
  mimeType?: string;
  /** Sizes such as `"48x48"` or `"any"`. */
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** Mixed into every type that may carry icons. Since 2025-11-25. */
export interface Icons {
  icons?: Icon[];
}

/** A programmatic `name` plus an optional display `title` (which falls back to `name`). Since 2025-06-18. */
export interface BaseMetadata {
  name: string;
  /** Since 2025-06-18. */
  title?: string;
}

/** Names a client or server implementation (`clientInfo`, `serverInfo`). */
export interface Implementation extends BaseMetadata, Icons {
  version: string;
  /** Since 2025-11-25. */
  description?: string;
  /** Since 2025-11-25. */
  websiteUrl?: string;
}
