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
 * The `x-mcp-header` annotations of an inputSchema reachable through `properties` chains only
 * (S26-HDR-2). Validity of the annotations is the client's concern (S26-HDR-3); the server checks
 * whatever its own tools declare.
 */
export function findHeaderParams(schema: unknown, path: readonly string[] = []): HeaderParam[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as JsonObject;
  const found: HeaderParam[] = [];
  const header = node['x-mcp-header'];
  if (path.length > 0 && typeof header === 'string' && header !== '') {
    found.push({ path, header, type: typeof node.type === 'string' ? node.type : undefined });
  }
  const properties = node.properties;
  if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
    for (const [key, child] of Object.entries(properties))
      found.push(...findHeaderParams(child, [...path, key]));
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
