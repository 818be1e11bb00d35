// What a client sees of the apps extension, decided per request: a client that renders apps gets tools
// with their `_meta.ui` as registered; any other client (S26-EXT-3: revert to core behaviour) gets plain
// tools, no app-only tools, and no `ui://` views in `resources/list`.

import type { JsonObject } from '../../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../../jsonrpc/rpc-error.ts';
import type { ExtensionHost, ServerExtensionPart } from '../../server/extension.ts';
import {
  APP_MIME_TYPE,
  APP_URI_SCHEME,
  DEPRECATED_RESOURCE_URI_KEY,
  canRenderApps,
  isVisibleToModel,
} from './apps-protocol.ts';

/**
 * Wrappers of `tools/list`, `tools/call` and `resources/list` (only these pay for the extension).
 * The client's capabilities are read from the request's context, so they are right in both eras
 * (per request in 2026-07-28, S26-EXT-2). `tools()` is the server's tools, known once attached.
 */
export function appsGate(tools: () => ExtensionHost['tools']): NonNullable<ServerExtensionPart['wraps']> {
  return {
    'tools/list': (next) => async (params, ctx, origin) => {
      const result = await next(params, ctx, origin);
      return canRenderApps(ctx.clientCapabilities) ? result : toPlainTools(result);
    },
    'resources/list': (next) => async (params, ctx, origin) => {
      const result = await next(params, ctx, origin);
      return canRenderApps(ctx.clientCapabilities) ? result : withoutViews(result);
    },
    'tools/call': (next) => (params, ctx, origin) => {
      if (!canRenderApps(ctx.clientCapabilities)) {
        // An app-only tool is never listed to this client; calling it is calling an unknown tool.
        const entry = tools().registry.get(params.name as string);
        if (entry && !isVisibleToModel(entry.definition))
          return Promise.reject(
            new RpcError(ErrorCode.InvalidParams, `Unknown tool: "${String(params.name)}"`),
          );
      }
      return next(params, ctx, origin);
    },
  };
}

/** The page without app-only tools, each tool without `_meta.ui` (copies: the listed objects are cached). */
function toPlainTools(result: JsonObject): JsonObject {
  const tools = (result.tools as JsonObject[]).filter((tool) => isVisibleToModel(tool)).map(toPlainTool);
  return { ...result, tools };
}

function toPlainTool(tool: JsonObject): JsonObject {
  const meta = tool._meta as JsonObject | undefined;
  if (!meta || (!('ui' in meta) && !(DEPRECATED_RESOURCE_URI_KEY in meta))) return tool;
  const { ui: _ui, [DEPRECATED_RESOURCE_URI_KEY]: _deprecated, ...rest } = meta;
  const { _meta: _dropped, ...plain } = tool;
  return Object.keys(rest).length === 0 ? plain : { ...plain, _meta: rest };
}

function withoutViews(result: JsonObject): JsonObject {
  const resources = (result.resources as JsonObject[]).filter(
    (resource) => !(resource.mimeType === APP_MIME_TYPE && String(resource.uri).startsWith(APP_URI_SCHEME)),
  );
  return { ...result, resources };
}
