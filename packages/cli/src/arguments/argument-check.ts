// The local check of a command's arguments before anything is sent: a tool's against its input
// schema (the keywords that can be judged without a JSON Schema validator), a prompt's against its
// declared arguments. Each problem is one line naming the argument, what was expected and what was given. Pure.

import type { Prompt } from 'mcpwire';

/** The part of a property's JSON Schema read here and in tool-arguments.ts. */
export interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  $ref?: unknown;
}

/** A tool input schema this file can judge: an object schema of a known dialect, read one level deep. */
export interface CheckableSchema {
  properties: Record<string, PropertySchema>;
  required: string[];
  /** False when `additionalProperties: false`: an argument not in `properties` is a problem. */
  isOpen: boolean;
}

/** The JSON Schema dialects whose `type`, `enum`, `required` and `additionalProperties` mean what is checked here. */
const KNOWN_DIALECTS = new Set([
  'https://json-schema.org/draft/2020-12/schema',
  'https://json-schema.org/draft/2019-09/schema',
  'http://json-schema.org/draft-07/schema',
  'http://json-schema.org/draft-06/schema',
  'http://json-schema.org/draft-04/schema',
]);

/**
 * Top-level keywords that change which arguments are required or allowed in ways this file does not
 * evaluate (combinators, conditionals, references, pattern-named properties): a schema with one is
 * sent as given and the server, which has a full validator, judges the arguments.
 */
const UNCHECKED_KEYWORDS = [
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'minProperties',
  'maxProperties',
];

/**
 * `inputSchema` as far as it can be checked locally, or undefined when it cannot be (not an object
 * schema, an unknown `$schema` dialect, or a keyword in UNCHECKED_KEYWORDS): then nothing is judged
 * here and the server decides (a wrong verdict here would refuse a call the server accepts).
 */
export function toCheckableSchema(inputSchema: unknown): CheckableSchema | undefined {
  if (typeof inputSchema !== 'object' || inputSchema === null || Array.isArray(inputSchema)) return undefined;
  const schema = inputSchema as Record<string, unknown>;
  const dialect = schema.$schema;
  if (
    dialect !== undefined &&
    !(typeof dialect === 'string' && KNOWN_DIALECTS.has(dialect.replace(/#$/, '')))
  )
    return undefined;
  if (UNCHECKED_KEYWORDS.some((keyword) => keyword in schema)) return undefined;
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
  return { properties: propertiesOf(schema), required, isOpen: schema.additionalProperties !== false };
}

/** The `properties` of a schema, or none. */
export function propertiesOf(schema: unknown): Record<string, PropertySchema> {
  if (typeof schema !== 'object' || schema === null) return {};
  const properties = (schema as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null && !Array.isArray(properties)
    ? (properties as Record<string, PropertySchema>)
    : {};
}

/**
 * Every problem of `args` against `schema`, in order: for each argument given (but those in `skip`,
 * already reported), an unknown name, a wrong type, a value outside the enum; then each required
 * argument not given. Empty when the arguments pass.
 */
export function findArgumentProblems(
  args: Record<string, unknown>,
  schema: CheckableSchema,
  skip: ReadonlySet<string> = new Set(),
): string[] {
  const problems: string[] = [];
  const known = Object.keys(schema.properties);
  for (const [key, value] of Object.entries(args)) {
    if (skip.has(key)) continue;
    const property = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    if (property === undefined) {
      if (!schema.isOpen)
        problems.push(`argument "${key}" is not one the tool takes (it takes ${listed(known, String)})`);
      continue;
    }
    const problem = propertyProblem(value, property);
    if (problem !== undefined)
      problems.push(`argument "${key}" expects ${problem}, received ${shown(value)}`);
  }
  for (const name of schema.required) {
    if (Object.hasOwn(args, name) || skip.has(name)) continue;
    const types = declaredTypes(schema.properties[name]);
    problems.push(
      `argument "${name}" is required${types.length === 0 ? '' : ` (${types.join(' or ')})`}, not given`,
    );
  }
  return problems;
}

/** A line for each required argument of `prompt` that `args` lacks (prompt arguments are text). */
export function findPromptArgumentProblems(prompt: Prompt, args: Record<string, string>): string[] {
  return (prompt.arguments ?? [])
    .filter((argument) => argument.required === true && !Object.hasOwn(args, argument.name))
    .map((argument) => `argument "${argument.name}" is required, not given`);
}

/** The types a property declares (`type`), none when it has a `$ref` (whose siblings old drafts ignore). */
export function declaredTypes(property: PropertySchema | undefined): string[] {
  if (typeof property !== 'object' || property === null || property.$ref !== undefined) return [];
  if (typeof property.type === 'string') return [property.type];
  if (Array.isArray(property.type)) return property.type.filter((type) => typeof type === 'string');
  return [];
}

/** What `value` should have been when it breaks the property's `type` or `enum`, else undefined. */
function propertyProblem(value: unknown, property: PropertySchema): string | undefined {
  const types = declaredTypes(property);
  if (types.length > 0 && !types.some((type) => hasType(value, type))) return types.join(' or ');
  const choices = property.$ref === undefined ? property.enum : undefined;
  // Only an enum of plain values is compared here; one with objects or arrays is the server's to judge.
  if (Array.isArray(choices) && choices.length > 0 && choices.every(isPlainValue) && !choices.includes(value))
    return `one of ${listed(choices, shown)}`;
  return undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    default:
      // A type name JSON Schema does not define: not ours to refuse.
      return true;
  }
}

function isPlainValue(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** A value as JSON, cut at 60 characters. */
function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

/** Up to 20 items, comma-separated, with how many more there are. */
function listed<T>(items: readonly T[], show: (item: T) => string): string {
  if (items.length === 0) return 'none';
  const first = items.slice(0, 20).map(show);
  return `${first.join(', ')}${items.length > first.length ? `, and ${items.length - first.length} more` : ''}`;
}
