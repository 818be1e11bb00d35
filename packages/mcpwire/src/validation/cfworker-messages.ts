// @cfworker/json-schema's output units worded as Ajv words them (ajv-validator.ts), so a failure reads the
// same whichever validator checked it: one `<JSON Pointer>: <message>` line per failed keyword.

import type { OutputUnit } from '@cfworker/json-schema';
import { formatErrorLine, toJsonPointer } from './error-line.ts';
import { truncate } from './schema-dialect.ts';

type SchemaObject = Record<string, unknown>;

// Units that only say "a subschema failed": Ajv reports the subschema's own failures instead.
const AGGREGATES = new Set([
  'properties',
  'patternProperties',
  'prefixItems',
  '$ref',
  '$recursiveRef',
  'allOf',
  'dependentSchemas',
  'dependencies',
]);

// Combinators Ajv reports after the failures of their branches.
const AFTER_BRANCHES = new Set(['anyOf', 'oneOf']);

/**
 * The error lines for `units` (cfworker's output for `value` against `root`), in Ajv's wording and, for
 * combinators, Ajv's order. A keyword without an Ajv counterpart keeps cfworker's sentence.
 */
export function toAjvLines(units: readonly OutputUnit[], root: unknown, value: unknown): string[] {
  const lines: string[] = [];
  const closedChildren = new Set<string>();
  const deferred: Array<{ prefix: string; line: string }> = [];
  for (const unit of units) {
    while (deferred.length > 0 && !unit.keywordLocation.startsWith(deferred.at(-1)!.prefix))
      lines.push(deferred.pop()!.line);
    if (unit.keyword === 'false' && closedChildren.has(unit.instanceLocation)) continue;
    const path = decodeLocation(unit.instanceLocation);
    const schema = schemaAt(root, decodeLocation(unit.keywordLocation).slice(0, -1));
    const message = ajvMessage(unit, schema, instanceAt(value, path), closedChildren);
    if (message === undefined) continue;
    const line = formatErrorLine(toJsonPointer(path), message);
    if (AFTER_BRANCHES.has(unit.keyword)) deferred.push({ prefix: `${unit.keywordLocation}/`, line });
    else lines.push(line);
  }
  while (deferred.length > 0) lines.push(deferred.pop()!.line);
  return [...new Set(lines)];
}

function ajvMessage(
  unit: OutputUnit,
  schema: SchemaObject | undefined,
  instance: unknown,
  closedChildren: Set<string>,
): string | undefined {
  const { keyword } = unit;
  if (keyword === 'false') return 'boolean schema is false';
  if (AGGREGATES.has(keyword)) return undefined;
  if (schema === undefined) return unit.error;
  const value = schema[keyword];
  switch (keyword) {
    case 'type':
      return `must be ${Array.isArray(value) ? value.join(',') : String(value)}`;
    case 'required':
      return `must have required property '${missingKey(schema, instance) ?? quoted(unit.error)}'`;
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      if (value !== false) return undefined;
      const key = quoted(unit.error);
      closedChildren.add(`${unit.instanceLocation}/${encodeSegment(key)}`);
      const what = keyword === 'additionalProperties' ? 'additional' : 'unevaluated';
      return `must NOT have ${what} properties (${JSON.stringify(key)})`;
    }
    case 'items':
    case 'additionalItems':
    case 'unevaluatedItems':
      return closedItems(unit, schema, instance, value, closedChildren);
    case 'enum':
      return `must be equal to one of the allowed values ${truncate(JSON.stringify(value))}`;
    case 'const':
      return `must be equal to constant ${truncate(JSON.stringify(value))}`;
    default:
      return simpleMessage(keyword, value) ?? unit.error;
  }
}

function simpleMessage(keyword: string, value: unknown): string | undefined {
  const limit = String(value);
  switch (keyword) {
    case 'minimum':
      return `must be >= ${limit}`;
    case 'maximum':
      return `must be <= ${limit}`;
    case 'exclusiveMinimum':
      return `must be > ${limit}`;
    case 'exclusiveMaximum':
      return `must be < ${limit}`;
    case 'multipleOf':
      return `must be multiple of ${limit}`;
    case 'minLength':
      return `must NOT have fewer than ${limit} characters`;
    case 'maxLength':
      return `must NOT have more than ${limit} characters`;
    case 'minItems':
      return `must NOT have fewer than ${limit} items`;
    case 'maxItems':
      return `must NOT have more than ${limit} items`;
    case 'minProperties':
      return `must NOT have fewer than ${limit} properties`;
    case 'maxProperties':
      return `must NOT have more than ${limit} properties`;
    case 'pattern':
      return `must match pattern "${limit}"`;
    case 'format':
      return `must match format "${limit}"`;
    case 'anyOf':
      return 'must match a schema in anyOf';
    case 'oneOf':
      return 'must match exactly one schema in oneOf';
    case 'not':
      return 'must NOT be valid';
    case 'contains':
      return 'must contain at least 1 valid item(s)';
    case 'propertyNames':
      return 'property name must be valid';
    default:
      return undefined;
  }
}

/** `items: false` (and its kin) closing a tuple: Ajv's one "more than N items" line for all extra items. */
function closedItems(
  unit: OutputUnit,
  schema: SchemaObject,
  instance: unknown,
  value: unknown,
  closedChildren: Set<string>,
): string | undefined {
  if (value !== false || !Array.isArray(instance)) return undefined;
  const tuple = schema['prefixItems'] ?? schema['items'];
  const allowed = Array.isArray(tuple) ? tuple.length : 0;
  for (let index = allowed; index < instance.length; index += 1)
    closedChildren.add(`${unit.instanceLocation}/${index}`);
  return `must NOT have more than ${allowed} items`;
}

/** The first property `required` names that `instance` lacks (Ajv reports them in the schema's order). */
function missingKey(schema: SchemaObject, instance: unknown): string | undefined {
  const required = schema['required'];
  if (!Array.isArray(required) || typeof instance !== 'object' || instance === null) return undefined;
  return required.find((key): key is string => typeof key === 'string' && !Object.hasOwn(instance, key));
}

/** The first double-quoted name in one of cfworker's sentences (`Property "x" does not match ...`). */
function quoted(sentence: string): string {
  return /"(.*?)"/s.exec(sentence)?.[1] ?? '';
}

/** cfworker's locations are URI fragments of JSON Pointers (`#/a%20b/0`): decoded to segments. */
function decodeLocation(location: string): string[] {
  const pointer = location.startsWith('#') ? location.slice(1) : location;
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~'));
}

function encodeSegment(key: string): string {
  return encodeURI(key.replaceAll('~', '~0').replaceAll('/', '~1')).replaceAll('#', '%23');
}

/** How many `$ref`s one keyword location may pass through before it is given up (a cycle ends there). */
const MAX_REF_HOPS = 64;

/**
 * The schema object at `path` under `root`, following local `$ref`s (`#/...` pointers, `#anchor`s) as cfworker's
 * keyword locations do; undefined where the path leaves what can be followed here. Iterative: a `$ref` to a
 * pointer continues with that pointer's segments, at most MAX_REF_HOPS times.
 */
function schemaAt(root: unknown, path: readonly string[]): SchemaObject | undefined {
  let node: unknown = root;
  // The segments still to follow, the next one last, so a `$ref`'s pointer is pushed in front of the rest.
  const pending = [...path].reverse();
  let hops = 0;
  for (let segment = pending.pop(); segment !== undefined; segment = pending.pop()) {
    if (typeof node !== 'object' || node === null) return undefined;
    const next: unknown = (node as SchemaObject)[segment];
    if (segment === '$ref' && typeof next === 'string') {
      if ((hops += 1) > MAX_REF_HOPS) return undefined;
      if (next === '#' || next.startsWith('#/')) {
        node = root;
        pending.push(...decodeLocation(next).reverse());
      } else if (/^#[A-Za-z_][\w.-]*$/.test(next)) node = findAnchor(root, next.slice(1));
      else return undefined;
    } else node = next;
  }
  return typeof node === 'object' && node !== null && !Array.isArray(node)
    ? (node as SchemaObject)
    : undefined;
}

/** The first object (depth first, in document order) whose `$anchor` is `anchor`, found with an explicit stack. */
function findAnchor(root: unknown, anchor: string): unknown {
  const stack: unknown[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (typeof node !== 'object' || node === null) continue;
    if ((node as SchemaObject)['$anchor'] === anchor) return node;
    const children = Object.values(node);
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index]);
  }
  return undefined;
}

function instanceAt(value: unknown, path: readonly string[]): unknown {
  let node = value;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
