// The host side of MCP Apps: which view a tool names (`appOf`), which tools the model may see
// (`isVisibleToModel`), and reading a view with every field checked (`readApp`). Rendering, the
// sandbox and the view's postMessage protocol stay with the host application.

import type { RequestOptions } from '../../protocol/session.ts';
import type { ReadResourceResult, Tool } from '../../protocol/types/index.ts';
import {
  APP_MIME_TYPE,
  APP_URI_SCHEME,
  CSP_FIELDS,
  DEPRECATED_RESOURCE_URI_KEY,
  PERMISSION_FIELDS,
  toolUiOf,
  type AppResourceMeta,
  type AppVisibility,
} from './apps-protocol.ts';

/** What was wrong with a tool's link or a view the server sent. */
export type AppErrorReason = 'tool-meta' | 'uri' | 'contents' | 'mime-type' | 'view-meta';

/** A local error: a tool's `_meta.ui` or a `ui://` read is not of the spec's shape. Never sent on the wire. */
export class AppError extends Error {
  readonly code = 'APP_INVALID';
  readonly reason: AppErrorReason;
  readonly uri: string | undefined;

  constructor(reason: AppErrorReason, uri: string | undefined, message: string) {
    super(message);
    this.name = 'AppError';
    this.reason = reason;
    this.uri = uri;
  }
}

/** A tool's view link, with `visibility` defaulted as the spec says. */
export interface ToolApp {
  resourceUri: string;
  visibility: AppVisibility[];
}

/** A view as read and checked: its HTML and its `_meta.ui` (CSP, permissions, domain, border). */
export interface AppView {
  uri: string;
  mimeType: typeof APP_MIME_TYPE;
  html: string;
  meta: AppResourceMeta;
}

/**
 * The view `tool` names, or undefined for a plain tool. Reads `_meta.ui.resourceUri`, then the
 * deprecated flat `_meta["ui/resourceUri"]`. Throws AppError for a URI outside `ui://` or a
 * `visibility` that is not a non-empty list of "model" and "app".
 */
export function appOf(tool: Pick<Tool, 'name' | '_meta'>): ToolApp | undefined {
  const ui = toolUiOf(tool);
  const uri = ui?.resourceUri ?? tool._meta?.[DEPRECATED_RESOURCE_URI_KEY];
  if (uri === undefined) return undefined;
  if (typeof uri !== 'string' || !uri.startsWith(APP_URI_SCHEME))
    throw new AppError(
      'uri',
      undefined,
      `Tool "${tool.name}": resourceUri ${JSON.stringify(uri)} is not a ui:// URI`,
    );
  const visibility = ui?.visibility ?? ['model', 'app'];
  if (
    !Array.isArray(visibility) ||
    visibility.length === 0 ||
    !visibility.every((who) => who === 'model' || who === 'app')
  )
    throw new AppError(
      'tool-meta',
      uri,
      `Tool "${tool.name}": visibility ${JSON.stringify(visibility)} is not a list of "model" and "app"`,
    );
  return { resourceUri: uri, visibility: [...(visibility as AppVisibility[])] };
}

/**
 * Reads view `uri` (`resources/read`) and checks it: a `ui://` URI, a contents item for that URI
 * with mime type exactly `text/html;profile=mcp-app`, text or base64 bytes (decoded as UTF-8), and
 * a `_meta.ui` of the spec's shape. Throws AppError naming what differs; RpcErrors pass through.
 */
export async function readApp(
  client: { readResource(params: { uri: string }, options?: RequestOptions): Promise<ReadResourceResult> },
  uri: string,
  options?: RequestOptions,
): Promise<AppView> {
  if (!uri.startsWith(APP_URI_SCHEME))
    throw new AppError('uri', uri, `${JSON.stringify(uri)} is not a ui:// URI`);
  const result = await client.readResource({ uri }, options);
  const item = result.contents.find((content) => content.uri === uri);
  if (!item)
    throw new AppError('contents', uri, `resources/read of ${uri} returned no contents for that URI`);
  if (item.mimeType !== APP_MIME_TYPE)
    throw new AppError(
      'mime-type',
      uri,
      `${uri}: expected mime type "${APP_MIME_TYPE}", received ${JSON.stringify(item.mimeType)}`,
    );
  let html: string;
  if ('text' in item && typeof item.text === 'string') html = item.text;
  else if ('blob' in item && typeof item.blob === 'string') html = decodeBase64(item.blob, uri);
  else throw new AppError('contents', uri, `${uri}: the contents have neither text nor blob`);
  return { uri, mimeType: APP_MIME_TYPE, html, meta: parseViewMeta(item._meta?.ui, uri) };
}

function decodeBase64(blob: string, uri: string): string {
  try {
    const bytes = Uint8Array.from(atob(blob), (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('contents', uri, `${uri}: the blob is not base64-encoded UTF-8`);
  }
}

/** A view's `_meta.ui`, checked field by field ({} when absent: the host's strict defaults apply). */
function parseViewMeta(value: unknown, uri: string): AppResourceMeta {
  if (value === undefined) return {};
  const fail = (what: string): never => {
    throw new AppError('view-meta', uri, `${uri}: _meta.ui${what}`);
  };
  if (!isObject(value)) return fail(' is not an object');
  const { csp, permissions, domain, prefersBorder } = value;
  if (csp !== undefined) {
    if (!isObject(csp)) fail('.csp is not an object');
    for (const field of CSP_FIELDS) {
      const list = (csp as Record<string, unknown>)[field];
      if (list !== undefined && !(Array.isArray(list) && list.every((origin) => typeof origin === 'string')))
        fail(`.csp.${field} is not a list of origins`);
    }
  }
  if (permissions !== undefined) {
    if (!isObject(permissions)) fail('.permissions is not an object');
    for (const field of PERMISSION_FIELDS) {
      const permission = (permissions as Record<string, unknown>)[field];
      if (permission !== undefined && !isObject(permission)) fail(`.permissions.${field} is not an object`);
    }
  }
  if (domain !== undefined && typeof domain !== 'string') fail('.domain is not a string');
  if (prefersBorder !== undefined && typeof prefersBorder !== 'boolean')
    fail('.prefersBorder is not a boolean');
  return structuredClone(value) as AppResourceMeta;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
