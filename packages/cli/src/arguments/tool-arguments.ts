// `key=value` operands turned into the arguments of a tool call, typed by the tool's input schema:
// numbers, booleans, and JSON for objects and arrays; everything else stays a string; then checked
// against that schema (argument-check.ts) so every problem is reported before anything is sent. Pure.

import {
  declaredTypes,
  findArgumentProblems,
  propertiesOf,
  toCheckableSchema,
  type PropertySchema,
} from './argument-check.ts';
import { ArgumentsError, UsageError } from '../exit-code.ts';

/**
 * Parses `pairs` (`key=value`) against `inputSchema.properties`, on top of `base` (`--args` JSON),
 * and checks the result against the schema (argument-check.ts). A value for a number, integer or
 * boolean property must parse as one; an object or array property takes JSON; a property of several
 * types takes the first that parses. Throws ArgumentsError with every problem found, a line each;
 * a schema that cannot be checked locally gets the arguments as parsed, the rest as text.
 */
export function parseToolArguments(
  pairs: readonly string[],
  inputSchema: unknown,
  base: Record<string, unknown> = {},
): Record<string, unknown> {
  const checkable = toCheckableSchema(inputSchema);
  const properties = propertiesOf(inputSchema);
  const result: Record<string, unknown> = { ...base };
  // Keyed by argument, so a later pair for the same key replaces an earlier one's problem.
  const unparsed = new Map<string, string>();
  const malformed: string[] = [];
  for (const pair of pairs) {
    const split = trySplitPair(pair);
    if (typeof split === 'string') {
      malformed.push(split);
      continue;
    }
    const [key, value] = split;
    const types = typesOf(Object.hasOwn(properties, key) ? properties[key] : undefined);
    const parsed = coerce(value, types);
    unparsed.delete(key);
    if (parsed !== NOT_PARSED || checkable === undefined) {
      // Unparsed under a schema we cannot check: sent as text, for the server to judge.
      result[key] = parsed === NOT_PARSED ? value : parsed;
      continue;
    }
    delete result[key];
    unparsed.set(key, `argument "${key}" expects ${types.join(' or ')}, received "${value}"`);
  }
  const problems = [
    ...malformed,
    ...unparsed.values(),
    ...(checkable === undefined ? [] : findArgumentProblems(result, checkable, new Set(unparsed.keys()))),
  ];
  if (problems.length > 0) throw new ArgumentsError(problems);
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
  const split = trySplitPair(pair);
  if (typeof split === 'string') throw new UsageError(split);
  return split;
}

/** `[key, value]`, or the problem's line when `pair` has no `=` after a key. */
function trySplitPair(pair: string): [string, string] | string {
  const at = pair.indexOf('=');
  if (at <= 0) return `expected key=value, received "${pair}"`;
  return [pair.slice(0, at), pair.slice(at + 1)];
}

function coerce(value: string, types: readonly string[]): unknown {
  if (types.length === 0) return value;
  for (const type of types) {
    const parsed = parseAs(type, value);
    if (parsed !== NOT_PARSED) return parsed;
  }
  return NOT_PARSED;
}

/** The types to try for a `key=value` value: the declared ones, or number for an enum of numbers. */
function typesOf(schema: PropertySchema | undefined): string[] {
  const declared = declaredTypes(schema);
  if (declared.length > 0 || schema?.$ref !== undefined) return declared;
  if (
    Array.isArray(schema?.enum) &&
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
