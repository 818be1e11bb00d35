// The protected resource metadata endpoint (RFC 9728, AUTH-4..6): the document at the path-inserted
// well-known URL of the resource and at the root one, as a handler that answers only those paths.

/** The metadata document (RFC 9728 §2). */
export interface ProtectedResourceDocument {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
  bearer_methods_supported: string[];
  resource_name?: string;
  resource_documentation?: string;
  dpop_signing_alg_values_supported?: string[];
  dpop_bound_access_tokens_required?: boolean;
}

/** What a handler reads of a request: the fields of mcpwire/http's request view it needs. */
export interface MetadataRequestView {
  readonly method: string;
  readonly pathname: string;
}

/** A reply in mcpwire/http's exchange shape. */
export interface MetadataReply {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/**
 * The endpoint: a fetch-style function, and `exchange`, the same on a request view (so
 * `chainHandlers` of mcpwire/http and `mcpwire/node` take it). Both answer only the well-known paths
 * (undefined from `exchange`, 404 from the function, for any other), GET and HEAD, with CORS open
 * (a browser client reads it cross-origin) and a short cache lifetime.
 */
export interface MetadataHandler {
  (request: Request): Promise<Response>;
  readonly exchange: (view: MetadataRequestView) => Promise<MetadataReply | undefined>;
}

/** `https://host/.well-known/oauth-protected-resource/<path>`: where `resource`'s metadata is (RFC 9728 §3.1). */
export function resourceMetadataUrlOf(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

/** Serves `document` at the path-inserted well-known URL of its resource and at the root one. */
export function createMetadataHandler(document: ProtectedResourceDocument): MetadataHandler {
  const paths = new Set([
    new URL(resourceMetadataUrlOf(document.resource)).pathname,
    '/.well-known/oauth-protected-resource',
  ]);
  const body = JSON.stringify(document);
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, HEAD, OPTIONS' };
  const exchange = (view: MetadataRequestView): Promise<MetadataReply | undefined> => {
    if (!paths.has(view.pathname)) return Promise.resolve(undefined);
    if (view.method === 'OPTIONS') return Promise.resolve({ status: 204, headers: cors, body: null });
    if (view.method !== 'GET' && view.method !== 'HEAD') {
      return Promise.resolve({ status: 405, headers: { ...cors, allow: 'GET, HEAD, OPTIONS' }, body: null });
    }
    const headers = { ...cors, 'content-type': 'application/json', 'cache-control': 'max-age=300' };
    return Promise.resolve({ status: 200, headers, body: view.method === 'HEAD' ? null : body });
  };
  const handler = async (request: Request): Promise<Response> => {
    const reply = await exchange({ method: request.method, pathname: new URL(request.url).pathname });
    if (reply === undefined) return new Response(null, { status: 404 });
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
  return Object.assign(handler, { exchange });
}
