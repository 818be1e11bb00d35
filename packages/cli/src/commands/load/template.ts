// Argument templates of `mcpwire load`: `{{i}}`, `{{worker}}`, `{{random MIN MAX}}`, `{{pick A B ...}}`
// and `{{uuid}}` in the strings of a step's arguments, compiled once into builders so that a request
// only fills them in; a value with no placeholder is one object, sent as it is by every request.

import type { LoadRandom } from './random.ts';

/** Builds a value for request `i` (0-based, warm-up included) sent by worker `worker`. */
export type ValueBuilder = (i: number, worker: number) => unknown;

/** A compiled value: the same every time, or built per request. */
export type CompiledValue = { constant: unknown } | { build: ValueBuilder };

/** A template that cannot be compiled; `detail` names the placeholder and what is wrong. */
export class TemplateError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'TemplateError';
  }
}

/** The placeholders, for help texts and errors. */
export const TEMPLATE_FORMS =
  '{{i}} (the request number), {{worker}} (the worker number), {{random MIN MAX}} (a whole number ' +
  'from MIN to MAX), {{pick A B ...}} (one of the words), {{uuid}}';

/** JSON nested deeper than this in a step's arguments is refused (the walk is a bounded recursion). */
const MAX_DEPTH = 32;
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

/**
 * Compiles `value` (JSON): strings with placeholders become builders of strings, objects and arrays
 * holding one become builders of fresh copies (the constant parts shared). With `isNumeric`, a string
 * that is exactly one placeholder builds a number (for a property the schema types as a number).
 */
export function compileValue(
  value: unknown,
  random: LoadRandom,
  options: { isNumeric?: boolean; depth?: number } = {},
): CompiledValue {
  const depth = options.depth ?? 0;
  if (depth > MAX_DEPTH) throw new TemplateError(`nested deeper than ${MAX_DEPTH} levels`);
  if (typeof value === 'string') return compileString(value, random, options.isNumeric === true);
  if (typeof value !== 'object' || value === null) return { constant: value };
  if (Array.isArray(value)) {
    const items = value.map((item) => compileValue(item, random, { depth: depth + 1 }));
    if (items.every((item) => 'constant' in item)) return { constant: value };
    return {
      build: (i, worker) => items.map((item) => ('build' in item ? item.build(i, worker) : item.constant)),
    };
  }
  return compileObject(value as Record<string, unknown>, random, { depth });
}

/**
 * An object's compiled fields: `numericKeys` name the top-level ones the schema types as numbers.
 * Constant when no field has a placeholder (then the very object given is sent each time).
 */
export function compileObject(
  object: Record<string, unknown>,
  random: LoadRandom,
  options: { numericKeys?: ReadonlySet<string>; depth?: number } = {},
): CompiledValue {
  const depth = options.depth ?? 0;
  const fields: Array<[string, CompiledValue]> = [];
  for (const [key, field] of Object.entries(object)) {
    try {
      fields.push([
        key,
        compileValue(field, random, { depth: depth + 1, isNumeric: options.numericKeys?.has(key) === true }),
      ]);
    } catch (error) {
      if (error instanceof TemplateError) throw new TemplateError(`${key}: ${error.message}`);
      throw error;
    }
  }
  if (fields.every(([, field]) => 'constant' in field)) return { constant: object };
  return {
    build: (i, worker) => {
      const built: Record<string, unknown> = {};
      for (const [key, field] of fields)
        built[key] = 'build' in field ? field.build(i, worker) : field.constant;
      return built;
    },
  };
}

/** True when `text` holds a placeholder. */
export function hasPlaceholder(text: string): boolean {
  return text.includes('{{');
}

function compileString(text: string, random: LoadRandom, isNumeric: boolean): CompiledValue {
  const literals: string[] = [];
  const builders: ValueBuilder[] = [];
  let at = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    literals.push(text.slice(at, match.index));
    builders.push(compilePlaceholder(match[0], match[1]!, random));
    at = match.index + match[0].length;
  }
  const rest = text.slice(at);
  if (builders.length === 0) {
    if (text.includes('{{')) throw new TemplateError(`"${text}": a "{{" with no "}}" to close it`);
    return { constant: text };
  }
  if (builders.length === 1 && literals[0] === '' && rest === '') {
    const only = builders[0]!;
    return {
      build: isNumeric ? (i, worker) => Number(only(i, worker)) : (i, worker) => String(only(i, worker)),
    };
  }
  return {
    build: (i, worker) => {
      let built = literals[0]!;
      for (let index = 0; index < builders.length; index++)
        built += String(builders[index]!(i, worker)) + (literals[index + 1] ?? rest);
      return built;
    },
  };
}

function compilePlaceholder(written: string, inner: string, random: LoadRandom): ValueBuilder {
  const [name, ...words] = inner.split(/\s+/).filter(Boolean);
  const refuse = (why: string): TemplateError =>
    new TemplateError(`${written}: ${why}; known: ${TEMPLATE_FORMS}`);
  switch (name) {
    case 'i':
    case 'worker':
    case 'uuid':
      if (words.length > 0) throw refuse(`${name} takes nothing after it`);
      return name === 'i' ? (i) => i : name === 'worker' ? (_i, worker) => worker : () => random.uuid();
    case 'random': {
      const [min, max] = words.map(Number);
      if (words.length !== 2 || !Number.isSafeInteger(min) || !Number.isSafeInteger(max))
        throw refuse('random takes two whole numbers, MIN and MAX');
      if (min! > max!) throw refuse('MIN is above MAX');
      return () => random.integer(min!, max!);
    }
    case 'pick':
      if (words.length === 0) throw refuse('pick takes one word or more');
      return () => random.pick(words);
    default:
      throw refuse('not a placeholder');
  }
}
