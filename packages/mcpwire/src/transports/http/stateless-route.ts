// The stateless era's validation ladder on HTTP, before the request reaches the server
// (S26-HTTP-11..16, checklist section 5 item 7): envelope keys -32602, then the version header
// against the body -32020, then version support -32022, then Mcp-Method, Mcp-Name and
// `Mcp-Param-*` -32020. Method lookup (404) is the server's.

import type { HeaderReader } from './exchange.ts';
import type { JsonObject, JsonRpcRequest } from '../../jsonrpc/message.ts';
import { RpcError } from '../../jsonrpc/rpc-error.ts';
import { readEnvelope } from '../../protocol/envelope.ts';
import { MetaKey, StatelessErrorCode } from '../../protocol/types/index.ts';
import type { HttpError } from './json-response.ts';
import { checkParamHeaders, findHeaderParams, type HeaderParam } from './param-headers.ts';
import { checkMethodHeaders, checkVersionHeader } from './request-headers.ts';

/** Finds a tool's inputSchema for the `Mcp-Param-*` check; `meta` is the request's `_meta`. */
export type ToolSchemaLookup = (
  name: string,
  meta: JsonObject,
) => object | undefined | Promise<object | undefined>;

/**
 * The HTTP error for a stateless request that fails the ladder, or undefined when it may be served.
 * Errors echo the request id (S26-HTTP-17). Synchronous unless the tool schema lookup is not.
 */
export function checkStatelessRequest(
  message: JsonRpcRequest,
  headers: HeaderReader,
  toolSchema: ToolSchemaLookup,
): HttpError | undefined | Promise<HttpError | undefined> {
  const { id } = message;
  let versionError: RpcError | undefined;
  try {
    readEnvelope(message.params);
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    // Conformance pins -32602 (missing keys) before -32020, and the version header's -32020 before -32022.
    if (error.code !== StatelessErrorCode.UnsupportedProtocolVersion) return fromRpcError(error, id);
    versionError = error;
  }
  const meta = message.params?._meta as JsonObject;
  const versionMismatch = checkVersionHeader(meta[MetaKey.protocolVersion], headers);
  if (versionMismatch) return headerMismatch(versionMismatch, id);
  // An unserved version is answered before the per-method headers, so the client always learns the
  // versions it may retry with (S26-VER-2; the conformance stateless mock's order, issue 13).
  if (versionError) return fromRpcError(versionError, id);
  const methodMismatch = checkMethodHeaders(message, headers);
  if (methodMismatch) return headerMismatch(methodMismatch, id);
  if (message.method !== 'tools/call' || typeof message.params?.name !== 'string') return undefined;
  // An unknown tool has no headers to check; the server answers it (-32602, in-band).
  const schema = toolSchema(message.params.name, meta);
  return schema instanceof Promise
    ? schema.then((found) => paramHeaderError(message, found, headers))
    : paramHeaderError(message, schema, headers);
}

/** The -32020 error for `Mcp-Param-*` headers that disagree with the arguments, if any. */
function paramHeaderError(
  message: JsonRpcRequest,
  schema: object | undefined,
  headers: HeaderReader,
): HttpError | undefined {
  const params = schema === undefined ? [] : headerParamsOf(schema);
  if (params.length === 0) return undefined;
  const paramMismatch = checkParamHeaders(params, message.params?.arguments, headers);
  return paramMismatch === undefined ? undefined : headerMismatch(paramMismatch, message.id);
}

function headerMismatch(message: string, id: JsonRpcRequest['id']): HttpError {
  return { status: 400, code: StatelessErrorCode.HeaderMismatch, message, id };
}

/** A schema's annotations, found once per schema object (a server's tool schemas are stable objects). */
function headerParamsOf(schema: object): readonly HeaderParam[] {
  let params = headerParamsCache.get(schema);
  if (params === undefined) headerParamsCache.set(schema, (params = findHeaderParams(schema)));
  return params;
}

const headerParamsCache = new WeakMap<object, readonly HeaderParam[]>();

function fromRpcError(error: RpcError, id: JsonRpcRequest['id']): HttpError {
  const base = { status: 400, code: error.code, message: error.message, id };
  return error.data === undefined ? base : { ...base, data: error.data };
}
