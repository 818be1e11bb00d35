// Content blocks: what tool results, prompt messages and sampling messages are made of.

import type { Annotations, MetaObject } from './base.ts';
import type { BlobResourceContents, Resource, TextResourceContents } from './resources.ts';

/** Plain text. */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  /** Since 2025-06-18. */
  _meta?: MetaObject;
}

/** An image as base64-encoded bytes. */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  /** Since 2025-06-18. */
  _meta?: MetaObject;
}

/** Audio as base64-encoded bytes. Since 2025-03-26. */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  /** Since 2025-06-18. */
  _meta?: MetaObject;
}

/** A link to a resource the client may read; it need not appear in `resources/list`. Since 2025-06-18. */
export interface ResourceLink extends Resource {
  type: 'resource_link';
}

/** The contents of a resource, embedded in the message. */
export interface EmbeddedResource {
  type: 'resource';
  resource: TextResourceContents | BlobResourceContents;
  annotations?: Annotations;
  /** Since 2025-06-18. */
  _meta?: MetaObject;
}

/**
 * Any content block of a tool result or prompt message. Named in 2025-06-18; audio since 2025-03-26,
 * resource_link since 2025-06-18 (see `adaptContentForRevision` for older peers).
 */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;
