// The MCP Apps extension as a value: `new Server(info, { extensions: [board] })` serves the views as
// `ui://` resources and shows tools' `_meta.ui` only to clients that render apps;
// `new Client(info, { extensions: [apps()] })` declares that the client renders HTML views.

import type { JsonObject } from '../../jsonrpc/message.ts';
import type { ClientExtensionPart } from '../../client/extension.ts';
import { defineExtension, type Extension } from '../../protocol/extension.ts';
import type { ExtensionHost, ServerExtensionPart } from '../../server/extension.ts';
import { appsGate } from './apps-gate.ts';
import { APP_MIME_TYPE, APPS_EXTENSION_ID, type AppToolMeta, type AppVisibility } from './apps-protocol.ts';
import { checkView, registerViews, type AppViewDefinition } from './app-views.ts';

/** Options of the apps extension. */
export interface AppsOptions {
  /** The views this server serves (none on a client). */
  views?: readonly AppViewDefinition[];
}

/** What {@link apps} returns: the extension value, and the `_meta` that links a tool to one of its views. */
export type AppsExtension = Extension<ServerExtensionPart, ClientExtensionPart> & {
  /**
   * `{ ui: { resourceUri, visibility? } }` for a tool's `_meta`. Throws TypeError if `uri` is not one
   * of this extension's views (the spec: the resource MUST exist) or `visibility` is empty or unknown.
   */
  toolMeta(uri: string, visibility?: readonly AppVisibility[]): JsonObject;
};

/**
 * The apps extension. On a Server it registers every view as a resource (mime type
 * `text/html;profile=mcp-app`, with its `_meta.ui`) and gates what each request sees: tools keep
 * their `_meta.ui` only for a client whose declared `mimeTypes` include the HTML profile; others get
 * plain tools, and app-only tools (`visibility: ["app"]`) neither listed nor callable. A tool's
 * handler runs the same for both and must return text content (the fallback the spec requires).
 * On a Client it declares `{ mimeTypes: ["text/html;profile=mcp-app"] }`. Throws TypeError for an
 * invalid view (see `checkView`) or two views with one URI.
 */
export function apps(options: AppsOptions = {}): AppsExtension {
  const views = options.views ?? [];
  const uris = new Set<string>();
  for (const view of views) {
    checkView(view);
    if (uris.has(view.uri)) throw new TypeError(`App view ${JSON.stringify(view.uri)} is defined twice`);
    uris.add(view.uri);
  }
  // The Server builds its handler table (with these wrappers) before it attaches extensions.
  let tools: ExtensionHost['tools'] | undefined;
  const server: ServerExtensionPart = {
    handlers: {},
    // The server has no settings of its own; `{}` says it speaks the extension (S26-EXT-1).
    settings: () => ({}),
    ...(views.length > 0 ? { requires: { resources: {} } } : {}),
    wraps: appsGate(() => tools!),
    attach(host) {
      tools = host.tools;
      registerViews(host, views);
    },
  };
  const client: ClientExtensionPart = { settings: () => ({ mimeTypes: [APP_MIME_TYPE] }) };
  const extension = defineExtension({ id: APPS_EXTENSION_ID, methods: {}, server, client });
  return Object.assign(extension, {
    toolMeta: (uri: string, visibility?: readonly AppVisibility[]) => toolMeta(uris, uri, visibility),
  });
}

function toolMeta(uris: ReadonlySet<string>, uri: string, visibility?: readonly AppVisibility[]): JsonObject {
  if (!uris.has(uri))
    throw new TypeError(
      `No app view ${JSON.stringify(uri)}: this extension serves ${[...uris].map((u) => JSON.stringify(u)).join(', ') || 'no views'}`,
    );
  const ui: AppToolMeta = { resourceUri: uri };
  if (visibility !== undefined) {
    if (visibility.length === 0 || !visibility.every((who) => who === 'model' || who === 'app'))
      throw new TypeError(`Invalid visibility ${JSON.stringify(visibility)}: expected "model" and/or "app"`);
    ui.visibility = [...visibility];
  }
  return { ui: ui as JsonObject };
}
