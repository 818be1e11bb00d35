// The MCP Apps extension's wire vocabulary (`io.modelcontextprotocol/ui`, SEP-1865, stable 2026-01-26):
// its id, the view mime type, the `_meta.ui` shapes of tools and `ui://` resources, the client's
// settings, and the one reading of "does this client render apps" both sides use.

import type { ClientCapabilities } from '../../protocol/types/index.ts';

/** The extension id under `capabilities.extensions` (S26-EXT-5). */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The mime type of an HTML view; a `ui://` resource's contents MUST carry exactly this. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The scheme every view's URI starts with (reserved for MCP Apps). */
export const APP_URI_SCHEME = 'ui://';
/** The flat tool `_meta` key older hosts read; deprecated by the spec in favour of `_meta.ui.resourceUri`. */
export const DEPRECATED_RESOURCE_URI_KEY = 'ui/resourceUri';

/** Who may call a tool: `model` (the agent) and/or `app` (a view of the same server). */
export type AppVisibility = 'model' | 'app';

/** A tool's `_meta.ui`. `visibility` defaults to `["model", "app"]`. */
export interface AppToolMeta {
  resourceUri?: string;
  visibility?: AppVisibility[];
}

/**
 * The origins a view needs, each list a CSP directive's sources. Omitted or empty: none (the host's
 * restrictive default: no network, no external scripts, no nested frames, `base-uri 'self'`).
 */
export interface AppResourceCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  connectDomains?: string[];
  /** `script-src`, `style-src`, `img-src`, `font-src`, `media-src`. */
  resourceDomains?: string[];
  /** `frame-src`: nested iframes. */
  frameDomains?: string[];
  /** `base-uri`. */
  baseUriDomains?: string[];
}

/** Browser features a view asks for; each present key (an empty object) is a request the host MAY grant. */
export interface AppResourcePermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** A `ui://` resource's `_meta.ui`: on its `resources/list` entry and on its `resources/read` contents. */
export interface AppResourceMeta {
  csp?: AppResourceCsp;
  permissions?: AppResourcePermissions;
  /** A dedicated sandbox origin; its format is the host's (e.g. a hash subdomain). */
  domain?: string;
  /** `true`: the host draws a border and background; `false`: none; omitted: the host decides. */
  prefersBorder?: boolean;
}

/** The client's (host's) settings under the extension id: the view mime types it renders (REQUIRED). */
export interface AppsClientSettings {
  mimeTypes: string[];
}

/** The field names of each CSP list and permission, in spec order (for readers that check shapes). */
export const CSP_FIELDS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
export const PERMISSION_FIELDS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

/**
 * True if `capabilities` (from `initialize` in the handshake era, from the request's `_meta` in the
 * stateless era, S26-EXT-2) declare the extension with `mimeTypes` that include `mimeType`. A
 * declaration without the HTML profile is a host that renders other kinds of view, not ours.
 */
export function canRenderApps(
  capabilities: ClientCapabilities | undefined,
  mimeType = APP_MIME_TYPE,
): boolean {
  const settings = capabilities?.extensions?.[APPS_EXTENSION_ID] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(settings?.mimeTypes) && settings.mimeTypes.includes(mimeType);
}

/** The `_meta.ui` of a tool as sent, or undefined when it has none (or it is not an object). */
export function toolUiOf(tool: {
  _meta?: Record<string, unknown> | undefined;
}): Record<string, unknown> | undefined {
  const ui = tool._meta?.ui;
  return typeof ui === 'object' && ui !== null && !Array.isArray(ui)
    ? (ui as Record<string, unknown>)
    : undefined;
}

/** True unless the tool's `_meta.ui.visibility` is a list without `model` (an app-only tool). */
export function isVisibleToModel(tool: { _meta?: Record<string, unknown> | undefined }): boolean {
  const visibility = toolUiOf(tool)?.visibility;
  return !Array.isArray(visibility) || visibility.includes('model');
}
