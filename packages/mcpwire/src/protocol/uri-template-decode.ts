// Decoding what one expression of a URI template matched: parameters by name, items by position,
// strict percent-decoding, and the bindings that check a variable bound twice agrees with itself.

import type { Operator, VarSpec } from './uri-template-syntax.ts';

/** Variables recovered by a match: strings, and string arrays for lists. */
export type MatchedVariables = Record<string, string | string[]>;

/** What decoding needs of an expression: its operator and its variables in template order. */
export interface SpanShape {
  readonly operator: Operator;
  readonly varSpecs: readonly VarSpec[];
}

/**
 * Decodes the span one expression matched into `bindings`; false when it does not decode (a bad
 * triplet, a value longer than its prefix, a name bound twice to different values).
 */
export function decodeSpan(segment: SpanShape, span: string, bindings: Bindings): boolean {
  const { operator } = segment;
  if (operator.first !== '' && span === '') return true;
  const body = span.slice(operator.first.length);
  return operator.isNamed ? decodeParameters(segment, body, bindings) : decodeItems(segment, body, bindings);
}

/** `;x=1;y` or `?x=1&list=a&list=b`: parameters in any order; names the template lacks are ignored. */
function decodeParameters(segment: SpanShape, body: string, bindings: Bindings): boolean {
  const params = new Map<string, string[]>();
  for (const param of body.split(segment.operator.sep)) {
    const eq = param.indexOf('=');
    const name = eq < 0 ? param : param.slice(0, eq);
    const raw = eq < 0 ? '' : param.slice(eq + 1);
    const raws = params.get(name);
    if (raws === undefined) params.set(name, [raw]);
    else raws.push(raw);
  }
  for (const spec of segment.varSpecs) {
    const raws = params.get(spec.name);
    if (raws === undefined) continue;
    if (!spec.isExploded && raws.length > 1) return false;
    const value = spec.isExploded ? decodeList(raws) : decodeScalar(raws[0]!, spec, true);
    if (value === undefined || !bindings.bind(spec, value)) return false;
  }
  return true;
}

/**
 * `a,b`, `/a/b` or `.a.b`: items in template order, missing trailing variables undefined. An exploded
 * variable takes every item but one for each variable after it; the last variable takes the rest.
 */
function decodeItems(segment: SpanShape, body: string, bindings: Bindings): boolean {
  const { operator, varSpecs } = segment;
  const items = body.split(operator.sep);
  let cursor = 0;
  for (let k = 0; k < varSpecs.length && cursor < items.length; k++) {
    const spec = varSpecs[k]!;
    const after = varSpecs.length - 1 - k;
    const remaining = items.length - cursor;
    const take = after === 0 ? remaining : spec.isExploded ? Math.max(1, remaining - after) : 1;
    const taken = items.slice(cursor, cursor + take);
    cursor += take;
    const value = itemsValue(operator, spec, taken);
    if (value === undefined || !bindings.bind(spec, value)) return false;
  }
  return true;
}

function itemsValue(
  operator: Operator,
  spec: VarSpec,
  taken: readonly string[],
): string | string[] | undefined {
  if (spec.isExploded) return decodeList(taken);
  if (taken.length === 1) return decodeScalar(taken[0]!, spec, !operator.allowsReserved);
  if (operator.sep === ',' && !operator.allowsReserved) return decodeList(taken);
  // Reserved expansion leaves ',' unencoded and '.' is unreserved, so both may occur inside a value; '/' may not.
  if (operator.allowsReserved || operator.sep === '.')
    return decodeScalar(taken.join(operator.sep), spec, !operator.allowsReserved);
  return undefined;
}

/** A string, or a list when an unencoded ',' shows one (`red,green,blue`) and commas are list syntax. */
function decodeScalar(raw: string, spec: VarSpec, commaIsList: boolean): string | string[] | undefined {
  if (commaIsList && raw.includes(',')) return decodeList(raw.split(','));
  const value = percentDecode(raw);
  if (value === undefined || spec.maxLength === undefined) return value;
  return codePointCount(value, spec.maxLength) <= spec.maxLength ? value : undefined;
}

/** Code points in `text`, counting no further than `limit + 1`. */
function codePointCount(text: string, limit: number): number {
  let count = 0;
  for (let i = 0; i < text.length && count <= limit; i++, count++) {
    if ((text.codePointAt(i) ?? 0) > 0xffff) i++;
  }
  return count;
}

function decodeList(raws: readonly string[]): string[] | undefined {
  const values: string[] = [];
  for (const raw of raws) {
    const value = percentDecode(raw);
    if (value === undefined) return undefined;
    values.push(value);
  }
  return values;
}

/** Decodes pct-encoded UTF-8; undefined for a malformed triplet or invalid UTF-8. */
function percentDecode(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Variables bound so far: a name bound twice must agree, a prefix binding being a prefix of the full value. */
export class Bindings {
  readonly #full = new Map<string, string | string[]>();
  readonly #prefixes = new Map<string, string>();

  bind(spec: VarSpec, value: string | string[]): boolean {
    const isPrefix = spec.maxLength !== undefined && typeof value === 'string';
    const map: Map<string, string | string[]> = isPrefix ? this.#prefixes : this.#full;
    const existing = map.get(spec.name);
    if (existing !== undefined && !isSameValue(existing, value)) return false;
    map.set(spec.name, value);
    return true;
  }

  toRecord(): MatchedVariables | undefined {
    for (const [name, prefix] of this.#prefixes) {
      const full = this.#full.get(name);
      if (full === undefined) this.#full.set(name, prefix);
      else if (typeof full !== 'string' || !full.startsWith(prefix)) return undefined;
    }
    // fromEntries defines own properties, so a variable named `__proto__` stays a plain key.
    return Object.fromEntries(this.#full);
  }
}

function isSameValue(a: string | string[], b: string | string[]): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
