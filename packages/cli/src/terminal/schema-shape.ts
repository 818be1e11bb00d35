// Reading a peer's JSON Schema for people: the type and the choices of one field (for the prompts of
// `connect`), and the shape of a tool's arguments as one short line each (for `list`). The schema is
// untrusted: walked to a fixed depth, every name and value shown through toTerminalText. Pure.

import { toTerminalText } from './terminal-text.ts';

/** The part of a property schema the CLI reads; anything may be missing or of another type. */
export interface FieldSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: FieldSchema[];
  anyOf?: FieldSchema[];
  allOf?: FieldSchema[];
  items?: FieldSchema;
  properties?: Record<string, FieldSchema>;
  required?: string[];
  $ref?: string;
  /** Read by connect's answer checks (`connect/field-checks.ts`). */
  format?: unknown;
  minLength?: unknown;
  maxLength?: unknown;
  minimum?: unknown;
  maximum?: unknown;
}

/** Objects nested deeper than this show as `object` (arrays as `array`, unions as `...`). */
const MAX_DEPTH = 3;
/** Properties of a nested object shown before `...`. */
const MAX_PROPERTIES = 5;
/** Members of a union shown before `|...`. */
const MAX_MEMBERS = 6;
/** Code points of a literal (an enum value, a default) shown before `…`. */
const MAX_LITERAL = 30;

/** The field's type: `type`, the first non-null of a type list, or `string` when it names none. */
export function typeOf(field: FieldSchema): string {
  if (typeof field.type === 'string') return field.type;
  return Array.isArray(field.type) ? (field.type.find((type) => type !== 'null') ?? 'string') : 'string';
}

/**
 * The values a field allows, each with its title where the schema gives one: an `enum` (titled by
 * `enumNames`), or the `const`s of `oneOf`/`anyOf` (SEP-1330). Empty when the field is not a choice.
 */
export function choicesOf(field: FieldSchema): Array<{ value: unknown; title?: unknown }> {
  if (Array.isArray(field.enum))
    return field.enum.map((value, index) => ({ value, title: field.enumNames?.[index] }));
  const members = field.oneOf ?? field.anyOf;
  if (!Array.isArray(members)) return [];
  const consts = members.filter((item) => isObject(item) && item.const !== undefined);
  return consts.map((item) => ({ value: item.const, title: item.title }));
}

/**
 * One line per property of an object schema (a tool's inputSchema), in the schema's order:
 * `name: shape`, `name?: shape` when not required, ` = default` when it has one; e.g.
 * `filter?: { owner: string, state?: "open"|"closed" }`, `paths: string[]`. Empty for a schema
 * without properties (a broken server's tools still list).
 */
export function toArgumentShapes(schema: unknown): string[] {
  return isObject(schema) ? propertiesOf(schema as FieldSchema, 0, Infinity) : [];
}

function propertiesOf(schema: FieldSchema, depth: number, limit: number): string[] {
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const shown = properties.slice(0, limit).map(([name, field]) => {
    const hasDefault = isObject(field) && field.default !== undefined;
    return (
      `${toTerminalText(name)}${required.has(name) ? '' : '?'}: ${shapeOf(field, depth)}` +
      (hasDefault ? ` = ${literal(field.default)}` : '')
    );
  });
  return properties.length > limit ? [...shown, '...'] : shown;
}

/** The shape of one schema, `depth` levels below the arguments. */
function shapeOf(field: unknown, depth: number): string {
  if (!isObject(field)) return 'any';
  const schema = field as FieldSchema;
  // A reference is shown by the name it points at: #/$defs/Filter is "Filter".
  if (typeof schema.$ref === 'string') return toTerminalText(schema.$ref.split('/').at(-1) || schema.$ref);
  if (schema.const !== undefined) return literal(schema.const);
  const choices = choicesOf(schema);
  if (choices.length > 0) return union(choices.map((choice) => literal(choice.value)));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const members = schema[key];
    if (!Array.isArray(members)) continue;
    if (depth >= MAX_DEPTH) return '...';
    const shapes = members.map((member) => shapeOf(member, depth + 1));
    return key === 'allOf' ? shapes.join(' & ') : union(shapes);
  }
  const types =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  if (types.length === 0) return isObject(schema.properties) ? typeShape(schema, 'object', depth) : 'any';
  return union(types.map((type) => typeShape(schema, String(type), depth)));
}

function typeShape(schema: FieldSchema, type: string, depth: number): string {
  if (type === 'object') {
    const properties = depth < MAX_DEPTH ? propertiesOf(schema, depth + 1, MAX_PROPERTIES) : [];
    return properties.length === 0 ? 'object' : `{ ${properties.join(', ')} }`;
  }
  if (type === 'array') {
    if (!isObject(schema.items) || depth >= MAX_DEPTH) return 'array';
    const items = shapeOf(schema.items, depth + 1);
    // `(string|number)[]`, not `string|number[]`; an object's own `|` is inside its braces.
    return /^[^{]*\|/.test(items) ? `(${items})[]` : `${items}[]`;
  }
  return toTerminalText(type);
}

function union(members: readonly string[]): string {
  const shown = members.slice(0, MAX_MEMBERS);
  return members.length > MAX_MEMBERS ? `${shown.join('|')}|...` : shown.join('|');
}

/** A value as JSON, at most MAX_LITERAL code points of it (cut before escaping, so no escape is split). */
function literal(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  const points = Array.from(json);
  return toTerminalText(points.length > MAX_LITERAL ? `${points.slice(0, MAX_LITERAL - 1).join('')}…` : json);
}

function isObject(value: unknown): value is Record<string, unknown> & FieldSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
