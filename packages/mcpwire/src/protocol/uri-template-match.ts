// Matching a URI against a parsed RFC 6570 template, the reverse of expansion. Written without regular
// expressions so the work is linear in the URI length whatever the input (no ReDoS, unlike the regex
// matcher of the official TypeScript SDK).
//
// How: each expression's expansion is bounded by a character set S (what its values and separators may
// contain), so it spans `S*` or `first S*`. A backward pass marks, for each segment and position, whether
// the rest of the template can match from there. A forward pass then gives each expression the longest
// span that keeps the rest matchable, preferring to leave the next expression's operator character to
// it (`{id}{.format}` splits "a.b.json" into "a.b" and "json"), and decodes that span strictly.

import {
  isReserved,
  isUnreserved,
  type ExpressionPart,
  type Operator,
  type TemplatePart,
  type VarSpec,
} from './uri-template-syntax.ts';

/** Variables recovered by a match: strings, and string arrays for lists. */
export type MatchedVariables = Record<string, string | string[]>;

/** Longest URI a template matches, in UTF-16 code units; longer URIs never match. */
export const MAX_URI_LENGTH = 64 * 1024;

interface LiteralSegment {
  readonly kind: 'literal';
  readonly text: string;
  /** Knuth-Morris-Pratt failure table of `text`, so all occurrences are found in linear time. */
  readonly failure: Int32Array;
}

interface ExpressionSegment {
  readonly kind: 'expression';
  readonly operator: Operator;
  readonly varSpecs: readonly VarSpec[];
  /** Code of the operator's first character, or -1 when the expansion has no leading character. */
  readonly first: number;
  /** 1 for each ASCII character the span may hold after `first`; non-ASCII is always accepted (IRIs). */
  readonly accepts: Uint8Array;
}

type Segment = LiteralSegment | ExpressionSegment;

/** Compiles template parts into a matcher; the matcher is pure and may be called concurrently. */
export function createMatcher(parts: readonly TemplatePart[]): (uri: string) => MatchedVariables | undefined {
  const segments = compileSegments(parts);
  return (uri) => (uri.length > MAX_URI_LENGTH ? undefined : matchSegments(segments, uri));
}

function compileSegments(parts: readonly TemplatePart[]): Segment[] {
  // `{?q}{&page}` and `{;a}{;b}` expand to one run of parameters; matched as one, the order is free.
  const merged: TemplatePart[] = [];
  for (const part of parts) {
    const last = merged.at(-1);
    if (
      part.kind === 'expression' &&
      last?.kind === 'expression' &&
      continuesParameters(last.operator, part.operator)
    ) {
      merged[merged.length - 1] = { ...last, varSpecs: [...last.varSpecs, ...part.varSpecs] };
    } else {
      merged.push(part);
    }
  }
  const segments: Segment[] = [];
  let hasQueryAfter = false;
  let hasFragmentAfter = false;
  for (let i = merged.length - 1; i >= 0; i--) {
    const part = merged[i]!;
    segments.unshift(
      part.kind === 'literal'
        ? { kind: 'literal', text: part.text, failure: failureTable(part.text) }
        : expressionSegment(part, hasQueryAfter, hasFragmentAfter),
    );
    const marks = part.kind === 'literal' ? part.text : part.operator.char;
    hasQueryAfter ||= marks.includes('?');
    hasFragmentAfter ||= marks.includes('#');
  }
  return segments;
}

function continuesParameters(previous: Operator, next: Operator): boolean {
  return previous.isNamed && next.isNamed && previous.sep === next.sep && next.first === next.sep;
}

function expressionSegment(
  part: ExpressionPart,
  hasQueryAfter: boolean,
  hasFragmentAfter: boolean,
): ExpressionSegment {
  const { operator, varSpecs } = part;
  const accepts = new Uint8Array(128);
  for (let code = 0; code < 128; code++) {
    // Values are read leniently: any RFC 3986 pchar (unreserved, pct-encoded, sub-delims, ':' and '@')
    // is accepted even where expansion would have percent-encoded it.
    const char = String.fromCharCode(code);
    const isPathChar = isUnreserved(code) || char === '%' || "!$&'()*+,;=:@".includes(char);
    const isUriChar = isUnreserved(code) || isReserved(code) || char === '%';
    accepts[code] = Number(operator.allowsReserved ? isUriChar : isPathChar);
  }
  const isList = varSpecs.length > 1 || varSpecs.some((spec) => spec.isExploded);
  if (operator.allowsReserved) {
    // A reserved expansion stops where a query or fragment the rest of the template provides for begins.
    if (hasQueryAfter) accepts[0x3f] = 0;
    if (hasFragmentAfter) accepts[0x23] = 0;
  } else if (operator.char === '?' || operator.char === '&') {
    accepts[0x2f] = accepts[0x3f] = 1; // RFC 3986 section 3.4: query = *( pchar / "/" / "?" )
  } else if (operator.sep === '/' && isList) {
    accepts[0x2f] = 1;
  }
  const first = operator.first === '' ? -1 : operator.first.charCodeAt(0);
  return { kind: 'expression', operator, varSpecs, first, accepts };
}

function failureTable(text: string): Int32Array {
  const failure = new Int32Array(text.length);
  for (let i = 1, k = 0; i < text.length; i++) {
    while (k > 0 && text.charCodeAt(i) !== text.charCodeAt(k)) k = failure[k - 1]!;
    if (text.charCodeAt(i) === text.charCodeAt(k)) k++;
    failure[i] = k;
  }
  return failure;
}

function matchSegments(segments: readonly Segment[], uri: string): MatchedVariables | undefined {
  const width = uri.length + 1;
  // canFinish[i * width + p] === 1 when segments i.. can match uri.slice(p); O(segments x length) in time and space.
  const canFinish = new Uint8Array((segments.length + 1) * width);
  const row = (i: number) => canFinish.subarray(i * width, (i + 1) * width);
  canFinish[segments.length * width + uri.length] = 1;
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i]!;
    if (segment.kind === 'literal') markLiteral(segment, uri, row(i), row(i + 1));
    else markExpression(segment, uri, row(i), row(i + 1));
  }
  if (canFinish[0] !== 1) return undefined;
  const bindings = new Bindings();
  let p = 0;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind === 'literal') {
      p += segment.text.length;
      continue;
    }
    const following = segments[i + 1];
    const preferred = following?.kind === 'expression' ? following.first : -1;
    const end = chooseEnd(segment, uri, p, row(i + 1), preferred);
    if (!decodeSpan(segment, uri.slice(p, end), bindings)) return undefined;
    p = end;
  }
  return bindings.toRecord();
}

function markLiteral(segment: LiteralSegment, uri: string, here: Uint8Array, next: Uint8Array): void {
  const { text, failure } = segment;
  for (let j = 0, k = 0; j < uri.length; j++) {
    const code = uri.charCodeAt(j);
    while (k > 0 && code !== text.charCodeAt(k)) k = failure[k - 1]!;
    if (code === text.charCodeAt(k)) k++;
    if (k === text.length) {
      if (next[j + 1] === 1) here[j + 1 - k] = 1;
      k = failure[k - 1]!;
    }
  }
}

function markExpression(segment: ExpressionSegment, uri: string, here: Uint8Array, next: Uint8Array): void {
  // reachAfter: can an S* run starting at p + 1 end where the next segment can finish?
  let reachAfter = false;
  for (let p = uri.length; p >= 0; p--) {
    const code = p < uri.length ? uri.charCodeAt(p) : -1;
    const reach: boolean = next[p] === 1 || (code >= 0 && accepts(segment, code) && reachAfter);
    const isFeasible = segment.first < 0 ? reach : next[p] === 1 || (code === segment.first && reachAfter);
    if (isFeasible) here[p] = 1;
    reachAfter = reach;
  }
}

function accepts(segment: ExpressionSegment, code: number): boolean {
  return code >= 0x80 || segment.accepts[code] === 1;
}

/** The end of the expression's span from `p`: the longest that lets the rest finish, see the header. */
function chooseEnd(
  segment: ExpressionSegment,
  uri: string,
  p: number,
  next: Uint8Array,
  preferred: number,
): number {
  let lo = p;
  if (segment.first >= 0) {
    if (uri.charCodeAt(p) !== segment.first) return p;
    lo = p + 1;
  }
  let hi = lo;
  while (hi < uri.length && accepts(segment, uri.charCodeAt(hi))) hi++;
  if (preferred >= 0) {
    for (let q = hi; q >= lo; q--) if (next[q] === 1 && uri.charCodeAt(q) === preferred) return q;
  }
  for (let q = hi; q >= lo; q--) if (next[q] === 1) return q;
  return p;
}

function decodeSpan(segment: ExpressionSegment, span: string, bindings: Bindings): boolean {
  const { operator } = segment;
  if (operator.first !== '' && span === '') return true;
  const body = span.slice(operator.first.length);
  return operator.isNamed ? decodeParameters(segment, body, bindings) : decodeItems(segment, body, bindings);
}

/** `;x=1;y` or `?x=1&list=a&list=b`: parameters in any order; names the template lacks are ignored. */
function decodeParameters(segment: ExpressionSegment, body: string, bindings: Bindings): boolean {
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
function decodeItems(segment: ExpressionSegment, body: string, bindings: Bindings): boolean {
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
class Bindings {
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
