// Roots: the filesystem boundaries a client exposes to servers (`roots/list`).

import type { MetaObject, Result } from './base.ts';

/** A root directory or file; `uri` is a `file://` URI. */
export interface Root {
  uri: string;
  name?: string;
  /** Since 2025-06-18. */
  _meta?: MetaObject;
}

/** Result of `roots/list`. */
export interface ListRootsResult extends Result {
  roots: Root[];
}
