// Public entry of `mcpwire/extensions/apps` (MCP Apps, `io.modelcontextprotocol/ui`, SEP-1865): the
// extension value a Server (views, gated tool links) and a Client (its declaration) take, the host-side
// readers of a tool's link and of a view, and the wire types.

export { apps, type AppsExtension, type AppsOptions } from './apps-server.ts';
export { checkView, type AppViewDefinition } from './app-views.ts';
export { AppError, appOf, readApp, type AppErrorReason, type AppView, type ToolApp } from './apps-client.ts';
export {
  APP_MIME_TYPE,
  APP_URI_SCHEME,
  APPS_EXTENSION_ID,
  DEPRECATED_RESOURCE_URI_KEY,
  canRenderApps,
  isVisibleToModel,
  type AppResourceCsp,
  type AppResourceMeta,
  type AppResourcePermissions,
  type AppsClientSettings,
  type AppToolMeta,
  type AppVisibility,
} from './apps-protocol.ts';
