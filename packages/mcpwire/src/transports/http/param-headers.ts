// Custom headers (SEP-2243, S26-HDR-1..5): a tool's inputSchema may mark a property with
// `"x-mcp-header": "<Name>"`; the client mirrors the argument into `Mcp-Param-<Name>`, and the
// server checks the mirror against the body before serving the call.

import type { HeaderReader } from './exchange.ts';
import type { JsonObject } from '../../jsonrpc/message.ts';
import { toWellFormed } from './mcp-headers.ts';
import { decodeHeaderValue } from './request-headers.ts';

/** One annotated property: where it sits in the arguments, its header name and its schema type. */
export interface HeaderParam {
  path: readonly string[];
  header: string;
  type: string | undefined;
}

/**
 * How many levels of `properties` the `x-mcp-header` walks descend (server and client alike): an
 * annotation below that is not looked for (issue 21: a schema from a peer may nest 100,000 deep).
 */
export const MAX_HEADER_SCHEMA_DEPTH = 64;

/**
 * The `x-mcp-header` annotations of an inputSchema reachable through `properties` chains only
 * (S26-HDR-2), at most MAX_HEADER_SCHEMA_DEPTH levels down, in document order. Walks with an explicit
 * stack. Validity of the annotations is the client's concern (S26-HDR-3); the server checks whatever
 * its own tools declare.
 */
export function findHeaderParams(schema: unknown): HeaderParam[] {
  const found: HeaderParam[] = [];
  const stack: Array<{ node: unknown; path: readonly string[] }> = [{ node: schema, path: [] }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { node, path } = top;
    if (typeof node !== 'object' || node === null) continue;
    const { 'x-mcp-header': header, type, properties } = node as JsonObject;
    if (path.length > 0 && typeof header === 'string' && header !== '')
      found.push({ path, header, type: typeof type === 'string' ? type : undefined });
    if (path.length >= MAX_HEADER_SCHEMA_DEPTH) continue;
    if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) continue;
    const children = Object.entries(properties);
    for (let index = children.length - 1; index >= 0; index -= 1) {
      const [key, child] = children[index]!;
      stack.push({ node: child, path: [...path, key] });
    }
  }
  return found;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * The -32020 message for the first `Mcp-Param-*` header that is missing, undecodable or differs from
 * its argument, or undefined when all agree. An argument that is absent or null expects no header
 * (S26-HDR-5); numbers compare numerically (`42` equals `42.0`, S26-HTTP-14).
 */
export function checkParamHeaders(
  params: readonly HeaderParam[],
  args: unknown,
  headers: HeaderReader,
): string | undefined {
  for (const param of params) {
    const value = valueAt(args, param.path);
    const expected = toHeaderText(value);
    if (expected === undefined) continue;
    const name = `Mcp-Param-${param.header}`;
    const raw = headers.get(name);
    if (raw === null) {
      return `Header mismatch: the ${name} header is required (arguments.${param.path.join('.')} is ${JSON.stringify(value)})`;
    }
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `Header mismatch: ${name} has invalid characters or invalid base64`;
    const isEqual =
      typeof value === 'number' && DECIMAL.test(decoded)
        ? Number(decoded) === value
        : decoded === toWellFormed(expected);
    if (!isEqual) {
      return `Header mismatch: ${name} is "${decoded}" but arguments.${param.path.join('.')} is ${JSON.stringify(value)}`;
    }
  }
  return undefined;
}

/** The header text of a primitive argument (S26-HDR-4), undefined for absent, null or structured values. */
function toHeaderText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as JsonObject)[key];
  }
  return node;
}
