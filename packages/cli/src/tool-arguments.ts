// `key=value` operands turned into the arguments of a tool call, typed by the tool's input schema:
// numbers, booleans, and JSON for objects and arrays; everything else stays a string. Pure.

import { UsageError } from './exit-code.ts';

/** The part of a JSON Schema property this file reads. */
interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
}

/**
 * Parses `pairs` (`key=value`) against `inputSchema.properties`, on top of `base` (`--args` JSON).
 * A value for a number, integer or boolean property must parse as one; an object or array property
 * takes JSON; a property of several types takes the first that parses. Throws UsageError naming the
 * key, the expected type and what was received.
 */
export function parseToolArguments(
  pairs: readonly string[],
  inputSchema: unknown,
  base: Record<string, unknown> = {},
): Record<string, unknown> {
  const properties = propertiesOf(inputSchema);
  const result: Record<string, unknown> = { ...base };
  for (const pair of pairs) {
    const [key, value] = splitPair(pair);
    result[key] = coerce(key, value, properties[key]);
  }
  return result;
}

/** Parses `--args` JSON: it must be an object. */
export function parseArgsJson(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--args expects a JSON object, e.g. '{"a": 1}': ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError(`--args expects a JSON object, received ${text}`);
  return parsed as Record<string, unknown>;
}

/** Splits `key=value` operands into a record of strings (prompt arguments, completion context). */
export function parseStringPairs(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(pairs.map(splitPair));
}

function splitPair(pair: string): [string, string] {
  const at = pair.indexOf('=');
  if (at <= 0) throw new UsageError(`expected key=value, received "${pair}"`);
  return [pair.slice(0, at), pair.slice(at + 1)];
}

function propertiesOf(schema: unknown): Record<string, PropertySchema> {
  if (typeof schema !== 'object' || schema === null) return {};
  const properties = (schema as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null
    ? (properties as Record<string, PropertySchema>)
    : {};
}

function coerce(key: string, value: string, schema: PropertySchema | undefined): unknown {
  const types = typesOf(schema);
  if (types.length === 0) return value;
  for (const type of types) {
    const parsed = parseAs(type, value);
    if (parsed !== NOT_PARSED) return parsed;
  }
  throw new UsageError(`argument "${key}" expects ${types.join(' or ')}, received "${value}"`);
}

function typesOf(schema: PropertySchema | undefined): string[] {
  if (schema === undefined) return [];
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type) => typeof type === 'string');
  if (
    Array.isArray(schema.enum) &&
    schema.enum.length > 0 &&
    schema.enum.every((item) => typeof item === 'number')
  )
    return ['number'];
  return [];
}

const NOT_PARSED = Symbol('not parsed');

function parseAs(type: string, value: string): unknown {
  switch (type) {
    case 'string':
      return value;
    case 'number':
      return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : NOT_PARSED;
    case 'integer':
      return /^-?\d+$/.test(value.trim()) ? Number(value) : NOT_PARSED;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : NOT_PARSED;
    case 'null':
      return value === 'null' ? null : NOT_PARSED;
    case 'object':
    case 'array':
      return parseJsonOf(type, value);
    default:
      return NOT_PARSED;
  }
}

function parseJsonOf(type: 'object' | 'array', value: string): unknown {
  try {
    const parsed: unknown = JSON.parse(value);
    const isArray = Array.isArray(parsed);
    if (type === 'array' ? isArray : typeof parsed === 'object' && parsed !== null && !isArray) return parsed;
  } catch {
    // Not JSON: try the next type.
  }
  return NOT_PARSED;
}
