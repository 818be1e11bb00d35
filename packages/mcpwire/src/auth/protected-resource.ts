// Protected resource discovery (RFC 9728, AUTH-4..AUTH-7): where the MCP server's metadata is, and
// whether the `resource` it publishes is this server (S26-AUTH-9).

import { OAuthError } from './errors.ts';
import { fetchMetadata, type AuthFetchContext } from './metadata-fetch.ts';

/** The parts of a protected resource metadata document the client uses. */
export interface ProtectedResourceMetadata {
  /** `resource`, exactly as published: sent verbatim as the `resource` parameter (AUTH-19). */
  resource: string;
  /** `authorization_servers`: issuer identifiers; the client uses the first (AUTH-5). */
  authorizationServers: readonly string[];
  scopesSupported?: readonly string[];
  /** Where the document was found. */
  url: string;
}

/**
 * The well-known locations of `serverUrl`'s metadata in the order AUTH-7 gives: the path-inserted
 * one first (when the URL has a path), then the root one.
 */
export function protectedResourceMetadataUrls(serverUrl: URL): URL[] {
  const path = serverUrl.pathname.replace(/\/$/, '');
  const root = new URL('/.well-known/oauth-protected-resource', serverUrl.origin);
  return path === ''
    ? [root]
    : [new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl.origin), root];
}

/**
 * Finds and validates the server's metadata: the challenge's `resource_metadata` when present (and
 * only it), else the well-known locations in order. Resolves undefined when none answers (a
 * 2025-03-26 server); rejects with OAuthError when a document is malformed or its `resource` is not
 * this server (same origin, and the server URL's path within the resource's path).
 */
export async function discoverProtectedResource(
  serverUrl: URL,
  resourceMetadata: string | undefined,
  context: AuthFetchContext,
): Promise<ProtectedResourceMetadata | undefined> {
  const step = 'protected-resource-discovery';
  let candidates: URL[];
  try {
    candidates =
      resourceMetadata === undefined ? protectedResourceMetadataUrls(serverUrl) : [new URL(resourceMetadata)];
  } catch {
    throw new OAuthError(step, `the challenge's resource_metadata "${resourceMetadata}" is not a URL`);
  }
  for (const url of candidates) {
    const document = await fetchMetadata(url, context, step);
    if (document === undefined) continue;
    const metadata = toMetadata(document, url);
    checkResourceIsServer(metadata, serverUrl);
    return metadata;
  }
  return undefined;
}

function toMetadata(document: Record<string, unknown>, url: URL): ProtectedResourceMetadata {
  const step = 'protected-resource-discovery';
  const { resource, authorization_servers: servers, scopes_supported: scopes } = document;
  if (typeof resource !== 'string' || resource === '')
    throw new OAuthError(step, `${url.href} has no "resource" string`);
  if (!Array.isArray(servers) || servers.length === 0 || !servers.every((s) => typeof s === 'string'))
    throw new OAuthError(
      step,
      `${url.href} has no "authorization_servers" (a non-empty array of issuer URLs)`,
    );
  const metadata: ProtectedResourceMetadata = {
    resource,
    authorizationServers: servers as string[],
    url: url.href,
  };
  if (Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'))
    metadata.scopesSupported = scopes as string[];
  return metadata;
}

/** RFC 9728 §3.3 and S26-AUTH-9: a document whose `resource` is another server is refused. */
function checkResourceIsServer(metadata: ProtectedResourceMetadata, serverUrl: URL): void {
  let resource: URL | undefined;
  try {
    resource = new URL(metadata.resource);
  } catch {
    resource = undefined;
  }
  const resourcePath = resource?.pathname.replace(/\/$/, '') ?? '';
  const serverPath = serverUrl.pathname.replace(/\/$/, '');
  const isThisServer =
    resource !== undefined &&
    resource.hash === '' &&
    resource.origin === serverUrl.origin &&
    (serverPath === resourcePath || serverPath.startsWith(`${resourcePath}/`));
  if (!isThisServer)
    throw new OAuthError(
      'protected-resource-discovery',
      `${metadata.url} publishes resource "${metadata.resource}", which is not the MCP server ${serverUrl.href}; refusing to authorize for it`,
    );
}
