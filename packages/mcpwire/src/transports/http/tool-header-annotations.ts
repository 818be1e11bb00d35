// `x-mcp-header` annotations of tool input schemas (S26-HDR-1..4): which are valid, which tools a
// client must hide, and which `Mcp-Param-*` headers a `tools/call` carries.

import type { JsonObject } from '../../jsonrpc/message.ts';
import { InvalidToolHeaderError } from './http-errors.ts';
import { encodeHeaderValue, McpHeader, toHeaderValue } from './mcp-headers.ts';
import { MAX_HEADER_SCHEMA_DEPTH } from './param-headers.ts';

/** One valid annotation: the argument at `path` (a chain of `properties` keys) goes into `Mcp-Param-<header>`. */
export interface HeaderAnnotation {
  readonly path: readonly string[];
  readonly header: string;
}

/** The outcome of checking one input schema. */
export type AnnotationCheck = { ok: true; annotations: HeaderAnnotation[] } | { ok: false; reason: string };

/** RFC 9110 `token` (1*tchar). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const ANNOTATION = 'x-mcp-header';
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/** Keywords whose value is a map of subschemas, other than `properties`. */
const SCHEMA_MAPS = ['patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is a subschema or an array of subschemas. */
const SCHEMA_SLOTS = [
  'items',
  'prefixItems',
  'additionalItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'anyOf',
  'oneOf',
  'allOf',
];

/**
 * Checks every `x-mcp-header` in an input schema (S26-HDR-2): a non-empty RFC 9110 token, unique
 * case-insensitively, on a `string`, `integer` or `boolean` property reached from the root through
 * `properties` only. Values (`default`, `const`, `enum`, ...) are data, not schemas, and are not searched;
 * subschemas more than MAX_HEADER_SCHEMA_DEPTH levels down are not searched either (issue 21).
 */
export function readHeaderAnnotations(inputSchema: unknown): AnnotationCheck {
  const annotations: HeaderAnnotation[] = [];
  const problems: string[] = [];
  walk(inputSchema, annotations, problems);
  const seen = new Map<string, string>();
  for (const { header, path } of annotations) {
    const earlier = seen.get(header.toLowerCase());
    if (earlier !== undefined)
      problems.push(`x-mcp-header "${header}" on "${path.join('.')}" repeats the one on "${earlier}"`);
    seen.set(header.toLowerCase(), path.join('.'));
  }
  const first = problems[0];
  return first === undefined ? { ok: true, annotations } : { ok: false, reason: first };
}

interface Place {
  path: string[];
  where: string;
  /** True while every step from the root was a `properties` key. */
  isDirect: boolean;
  /** Subschema levels from the root. */
  depth: number;
}

/** Visits every subschema in document order with an explicit stack, down to MAX_HEADER_SCHEMA_DEPTH. */
function walk(inputSchema: unknown, out: HeaderAnnotation[], problems: string[]): void {
  const root: Place = { path: [], where: 'the input schema', isDirect: true, depth: 0 };
  const stack: Array<[unknown, Place]> = [[inputSchema, root]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [schema, place] = top;
    if (!isObject(schema)) continue;
    if (ANNOTATION in schema) {
      const problem = checkAnnotation(schema, place);
      if (problem === undefined) out.push({ path: place.path, header: schema[ANNOTATION] as string });
      else problems.push(problem);
    }
    if (place.depth >= MAX_HEADER_SCHEMA_DEPTH) continue;
    const children = subschemas(schema, place);
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index]!);
  }
}

/** The subschemas directly under `schema`, each with its place, in document order. */
function subschemas(schema: Record<string, unknown>, place: Place): Array<[unknown, Place]> {
  const children: Array<[unknown, Place]> = [];
  const properties = schema.properties;
  if (isObject(properties)) {
    for (const [name, sub] of Object.entries(properties)) {
      const path = [...place.path, name];
      const where = `property "${path.join('.')}"`;
      children.push([sub, { path, where, isDirect: place.isDirect, depth: place.depth + 1 }]);
    }
  }
  for (const keyword of SCHEMA_MAPS) {
    const map = schema[keyword];
    if (!isObject(map)) continue;
    for (const [name, sub] of Object.entries(map)) children.push([sub, nested(place, `${keyword}/${name}`)]);
  }
  for (const keyword of SCHEMA_SLOTS) {
    const slot = schema[keyword];
    if (Array.isArray(slot)) slot.forEach((sub, i) => children.push([sub, nested(place, `${keyword}/${i}`)]));
    else if (isObject(slot)) children.push([slot, nested(place, keyword)]);
  }
  return children;
}

function nested(place: Place, step: string): Place {
  return { path: place.path, where: `${place.where} under ${step}`, isDirect: false, depth: place.depth + 1 };
}

function checkAnnotation(schema: Record<string, unknown>, place: Place): string | undefined {
  const header = schema[ANNOTATION];
  if (typeof header !== 'string' || header === '')
    return `x-mcp-header on ${place.where} must be a non-empty string`;
  if (!TOKEN.test(header))
    return `x-mcp-header ${JSON.stringify(header)} on ${place.where} is not an HTTP token (letters, digits, !#$%&'*+-.^_\`|~)`;
  if (!place.isDirect || place.path.length === 0)
    return `x-mcp-header "${header}" on ${place.where} is not reached from the root through "properties" only`;
  const type = schema.type;
  if (typeof type !== 'string' || !HEADER_TYPES.has(type))
    return `x-mcp-header "${header}" on ${place.where} must be on a string, integer or boolean property, not ${JSON.stringify(type ?? 'untyped')}`;
  return undefined;
}

/**
 * What a client has learned from `tools/list` results about each tool's header annotations. Tools
 * with an invalid annotation are removed from the results it filters (S26-HDR-3) and reported.
 */
export class ToolHeaderRegistry {
  readonly #byTool = new Map<string, HeaderAnnotation[]>();
  readonly #report: (error: InvalidToolHeaderError) => void;

  constructor(report: (error: InvalidToolHeaderError) => void) {
    this.#report = report;
  }

  /**
   * Learns the annotations of every tool in a `tools/list` result and returns the result without
   * the invalid tools (the same object when nothing was dropped). Other results pass unchanged.
   */
  filterToolsList(result: JsonObject): JsonObject {
    const tools = result.tools;
    if (!Array.isArray(tools)) return result;
    const kept: unknown[] = [];
    for (const tool of tools as unknown[]) {
      const name = isObject(tool) && typeof tool.name === 'string' ? tool.name : undefined;
      const check = readHeaderAnnotations(isObject(tool) ? tool.inputSchema : undefined);
      if (!check.ok) {
        if (name !== undefined) this.#byTool.delete(name);
        this.#report(new InvalidToolHeaderError(name ?? '(unnamed)', check.reason));
        continue;
      }
      if (name !== undefined) {
        if (check.annotations.length > 0) this.#byTool.set(name, check.annotations);
        else this.#byTool.delete(name);
      }
      kept.push(tool);
    }
    return kept.length === tools.length ? result : { ...result, tools: kept };
  }

  /** The `Mcp-Param-*` headers of a call to `tool` with `args`, encoded; none for an unknown tool. */
  paramHeaders(tool: string, args: unknown): Array<[string, string]> {
    const headers: Array<[string, string]> = [];
    for (const { path, header } of this.#byTool.get(tool) ?? []) {
      const value = toHeaderValue(valueAt(args, path));
      if (value !== undefined) headers.push([`${McpHeader.paramPrefix}${header}`, encodeHeaderValue(value)]);
    }
    return headers;
  }
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
