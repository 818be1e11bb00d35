// A server's views: each `ui://` HTML page is an ordinary resource with the app mime type and its
// `_meta.ui` (CSP, permissions, domain, border) both on its listing and on what `resources/read` returns.

import type { JsonObject } from '../../jsonrpc/message.ts';
import type { ReadResourceResult } from '../../protocol/types/index.ts';
import type { ExtensionHost } from '../../server/extension.ts';
import {
  APP_MIME_TYPE,
  APP_URI_SCHEME,
  CSP_FIELDS,
  PERMISSION_FIELDS,
  type AppResourceCsp,
  type AppResourceMeta,
  type AppResourcePermissions,
} from './apps-protocol.ts';

/** One view as the server author describes it. */
export interface AppViewDefinition {
  /** `ui://server/name`: the URI tools name in `_meta.ui.resourceUri`. */
  uri: string;
  name: string;
  title?: string;
  description?: string;
  /** One self-contained HTML5 document, or a function that makes it (called on every read). */
  html: string | (() => string | Promise<string>);
  /** The origins the page needs; omit for none (the host then allows no network at all). */
  csp?: AppResourceCsp;
  permissions?: AppResourcePermissions;
  domain?: string;
  prefersBorder?: boolean;
}

/**
 * Throws TypeError, naming the view and what is wrong, for a URI outside `ui://`, an empty name, or
 * a CSP list or permission that is not of the spec's shape. Pure: run at construction.
 */
export function checkView(view: AppViewDefinition): void {
  const where = `App view ${JSON.stringify(view.uri)}`;
  if (typeof view.uri !== 'string' || !view.uri.startsWith(APP_URI_SCHEME) || view.uri.length <= 5)
    throw new TypeError(`${where}: the URI must start with "ui://" and name the view`);
  if (typeof view.name !== 'string' || view.name === '') throw new TypeError(`${where}: a name is required`);
  for (const [field, value] of Object.entries(view.csp ?? {})) {
    if (!(CSP_FIELDS as readonly string[]).includes(field))
      throw new TypeError(
        `${where}: unknown CSP field "${field}" (expected one of ${CSP_FIELDS.join(', ')})`,
      );
    if (!Array.isArray(value) || !value.every((origin) => typeof origin === 'string'))
      throw new TypeError(`${where}: csp.${field} must be a list of origins`);
  }
  for (const field of Object.keys(view.permissions ?? {}))
    if (!(PERMISSION_FIELDS as readonly string[]).includes(field))
      throw new TypeError(
        `${where}: unknown permission "${field}" (expected one of ${PERMISSION_FIELDS.join(', ')})`,
      );
}

/** The view's `_meta.ui`: only what the author set, so an omitted CSP stays omitted (the strict default). */
export function resourceMetaOf(view: AppViewDefinition): AppResourceMeta {
  const meta: AppResourceMeta = {};
  if (view.csp !== undefined) meta.csp = structuredClone(view.csp);
  if (view.permissions !== undefined) meta.permissions = structuredClone(view.permissions);
  if (view.domain !== undefined) meta.domain = view.domain;
  if (view.prefersBorder !== undefined) meta.prefersBorder = view.prefersBorder;
  return meta;
}

/** Registers every view as a resource; each read returns one text item with the app mime type. */
export function registerViews(host: ExtensionHost, views: readonly AppViewDefinition[]): void {
  for (const view of views) {
    const ui = resourceMetaOf(view) as JsonObject;
    host.resource(
      {
        uri: view.uri,
        name: view.name,
        ...(view.title === undefined ? {} : { title: view.title }),
        ...(view.description === undefined ? {} : { description: view.description }),
        mimeType: APP_MIME_TYPE,
        _meta: { ui },
      },
      async (uri): Promise<ReadResourceResult> => {
        const text = typeof view.html === 'string' ? view.html : await view.html();
        return { contents: [{ uri, mimeType: APP_MIME_TYPE, text, _meta: { ui: structuredClone(ui) } }] };
      },
    );
  }
}
