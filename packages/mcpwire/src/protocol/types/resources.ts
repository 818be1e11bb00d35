// Resources: descriptions, templates, contents and the requests that list, read and watch them.

import type {
  Annotations,
  BaseMetadata,
  Icons,
  MetaObject,
  NotificationParams,
  PaginatedResult,
  RequestParams,
  Result,
} from './base.ts';

/** A resource the server can read. */
export interface Resource extends BaseMetadata, Icons {
  uri: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  /** Raw size in bytes, if known. */
  size?: number;
  /** Since 2025-06-18. */
  _meta?: MetaObject;
}

/** A family of resources addressed by an RFC 6570 URI template. */
export interface ResourceTemplate extends BaseMetadata, Icons {
  uriTemplate: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  /** Since 2025-06-18. */
  _meta?: MetaObject;
}

/** What every item of read contents has. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  /** Since 2025-06-18. */
  _meta?: MetaObject;
}

/** Resource contents as text. */
export interface TextResourceContents extends ResourceContents {
  text: string;
}

/** Resource contents as base64-encoded bytes. */
export interface BlobResourceContents extends ResourceContents {
  blob: string;
}

/** Result of `resources/list`. */
export interface ListResourcesResult extends PaginatedResult {
  resources: Resource[];
}

/** Result of `resources/templates/list`. */
export interface ListResourceTemplatesResult extends PaginatedResult {
  resourceTemplates: ResourceTemplate[];
}

/** Params of any request about one resource. Named in 2025-11-25; the shape is the same in every revision. */
export interface ResourceRequestParams extends RequestParams {
  uri: string;
}

/** Params of `resources/read`. */
export type ReadResourceRequestParams = ResourceRequestParams;

/** Result of `resources/read`; one read may return several contents (e.g. a directory). */
export interface ReadResourceResult extends Result {
  contents: Array<TextResourceContents | BlobResourceContents>;
}

/** Params of `resources/subscribe` (removed in 2026-07-28, which has `subscriptions/listen`). */
export type SubscribeRequestParams = ResourceRequestParams;

/** Params of `resources/unsubscribe` (removed in 2026-07-28). */
export type UnsubscribeRequestParams = ResourceRequestParams;

/** Params of `notifications/resources/updated`; `uri` may be a sub-resource of the subscribed one. */
export interface ResourceUpdatedNotificationParams extends NotificationParams {
  uri: string;
}
