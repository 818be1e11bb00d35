// Matching a URI against a parsed RFC 6570 template, the reverse of expansion. Written without regular
// expressions so the work is linear in the URI length whatever the input (no ReDoS, unlike the regex
// matcher of the official TypeScript SDK).
//
// How: each expression's expansion is bounded by a character set S (what its values and separators may
// contain), so it spans `S*` or `first S*`. A backward pass marks, for each segment and position, whether
// the rest of the template can match from there; no segment may begin inside a pct-encoded triplet. A
// forward pass then gives each expression the longest span that keeps the rest matchable, preferring to
// leave the next expression's operator character to it (`{id}{.format}` splits "a.b.json" into "a.b" and
// "json"; a parameter or list expression is left all of its own), never longer than a lone prefix
// variable or a `{/a,b}` list can hold, and decodes that span strictly (uri-template-decode.ts).
// S leaves out the `;`, `&` and `?` that begin a later parameter expression, which this expansion
// would have encoded, so `{name}{;v}` cannot swallow the parameters.

import { Bindings, decodeSpan, type MatchedVariables } from './uri-template-decode.ts';
import {
  isReserved,
  isUnreserved,
  type ExpressionPart,
  type Operator,
  type TemplatePart,
  type VarSpec,
} from './uri-template-syntax.ts';

export type { MatchedVariables } from './uri-template-decode.ts';

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
  /** Another leading character the span may begin with (a parameter run's separator), or -1. */
  readonly alsoFirst: number;
  /** 1 for each ASCII character the span may hold after `first`; non-ASCII is always accepted (IRIs). */
  readonly accepts: Uint8Array;
  /** For a lone prefix variable (`{var:3}`): the most code points its decoded span may hold. */
  readonly maxLength: number | undefined;
  /** For `{/a,b}` (no explode): the most `/`-separated items its span may hold. */
  readonly maxItems: number | undefined;
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
  const runs = new WeakSet<ExpressionPart>();
  for (const part of parts) {
    const last = merged.at(-1);
    if (
      part.kind === 'expression' &&
      last?.kind === 'expression' &&
      continuesParameters(last.operator, part.operator)
    ) {
      const run = { ...last, varSpecs: [...last.varSpecs, ...part.varSpecs] };
      runs.add(run);
      merged[merged.length - 1] = run;
    } else {
      merged.push(part);
    }
  }
  const segments: Segment[] = [];
  const following: Following = { hasQuery: false, hasFragment: false, parameterStarts: '' };
  for (let i = merged.length - 1; i >= 0; i--) {
    const part = merged[i]!;
    segments.unshift(
      part.kind === 'literal'
        ? { kind: 'literal', text: part.text, failure: failureTable(part.text) }
        : expressionSegment(part, { following, isRun: runs.has(part) }),
    );
    const marks = part.kind === 'literal' ? part.text : part.operator.char;
    following.hasQuery ||= marks.includes('?');
    following.hasFragment ||= marks.includes('#');
    if (part.kind === 'expression' && part.operator.isNamed)
      following.parameterStarts += part.operator.first + part.operator.sep;
  }
  return segments;
}

/** What the rest of the template holds, seen from one expression: where that expression's span must stop. */
interface Following {
  /** A later literal or operator has `?` (a query begins there). */
  hasQuery: boolean;
  /** A later literal or operator has `#` (a fragment begins there). */
  hasFragment: boolean;
  /** The first characters of later parameter expressions (`;`, `?`, `&`). */
  parameterStarts: string;
}

function continuesParameters(previous: Operator, next: Operator): boolean {
  return previous.isNamed && next.isNamed && previous.sep === next.sep && next.first === next.sep;
}

function expressionSegment(
  part: ExpressionPart,
  context: { following: Readonly<Following>; isRun: boolean },
): ExpressionSegment {
  const { operator, varSpecs } = part;
  const { following } = context;
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
    if (following.hasQuery) accepts[0x3f] = 0;
    if (following.hasFragment) accepts[0x23] = 0;
  } else {
    if (operator.char === '?' || operator.char === '&') {
      accepts[0x2f] = accepts[0x3f] = 1; // RFC 3986 section 3.4: query = *( pchar / "/" / "?" )
    } else if (operator.sep === '/' && isList) {
      accepts[0x2f] = 1;
    }
    // This expansion encodes a `;`, `&` or `?` in a value, so where a later parameter expression
    // begins with one, the span stops there and leaves the parameters to it (`{name}{;v}`).
    for (const char of following.parameterStarts) if (char !== operator.sep) accepts[char.charCodeAt(0)] = 0;
  }
  const first = operator.first === '' ? -1 : operator.first.charCodeAt(0);
  // `{?q}{&page}` with q undefined expands to `&page=2`: the run then begins with its separator.
  const alsoFirst = context.isRun && operator.sep !== operator.first ? operator.sep.charCodeAt(0) : -1;
  const single = varSpecs.length === 1 && !operator.isNamed ? varSpecs[0] : undefined;
  const maxLength = single?.isExploded === false ? single.maxLength : undefined;
  // `{/a,b}` holds at most two items, and a `/` inside a value is always encoded.
  const isBounded = operator.sep === '/' && !operator.allowsReserved && !varSpecs.some((s) => s.isExploded);
  const maxItems = isBounded ? varSpecs.length : undefined;
  return { kind: 'expression', operator, varSpecs, first, alsoFirst, accepts, maxLength, maxItems };
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
    if (i > 0) dropCutsInsideTriplets(uri, row(i));
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
    const after = segments[i + 1];
    const following =
      after?.kind === 'expression'
        ? { first: after.first, isRepeating: repeatsFirst(after) }
        : { first: -1, isRepeating: false };
    const end = chooseEnd(segment, uri, p, row(i + 1), following);
    if (end < 0 || !decodeSpan(segment, uri.slice(p, end), bindings)) return undefined;
    p = end;
  }
  return bindings.toRecord();
}

/**
 * Unmarks the positions one or two characters after a `%`: a segment boundary there would cut a
 * pct-encoded triplet, and no span so cut decodes. Literals hold whole triplets, so this only
 * removes splits that would fail later (`{a}0{b}` on `0%00`: `a` must not end at `0%0`).
 */
function dropCutsInsideTriplets(uri: string, here: Uint8Array): void {
  for (let p = uri.indexOf('%'); p !== -1; p = uri.indexOf('%', p + 1)) {
    here[p + 1] = 0;
    if (p + 2 < here.length) here[p + 2] = 0;
  }
}

/** True when the expansion of `segment` may hold its first character more than once (`;a=1;b`, `/x/y`). */
function repeatsFirst(segment: ExpressionSegment): boolean {
  const { operator, varSpecs } = segment;
  const isList = varSpecs.length > 1 || varSpecs.some((spec) => spec.isExploded);
  return operator.isNamed || (isList && operator.sep === operator.first);
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
    const isLead = code >= 0 && (code === segment.first || code === segment.alsoFirst);
    const isFeasible = segment.first < 0 ? reach : next[p] === 1 || (isLead && reachAfter);
    if (isFeasible) here[p] = 1;
    reachAfter = reach;
  }
}

function accepts(segment: ExpressionSegment, code: number): boolean {
  return code >= 0x80 || segment.accepts[code] === 1;
}

/**
 * The end of the expression's span from `p`: the longest that lets the rest finish, see the header;
 * -1 when none does (a prefix variable's value would be too long).
 */
function chooseEnd(
  segment: ExpressionSegment,
  uri: string,
  p: number,
  next: Uint8Array,
  following: { first: number; isRepeating: boolean },
): number {
  const preferred = following.first;
  // An expression whose span repeats its first character (`;a;b`, `.x.y`) is left every one of them;
  // otherwise the last (`{id}{.format}` on `a.b.json` gives `a.b` and `json`).
  const preferFirst = following.isRepeating;
  let lo = p;
  if (segment.first >= 0) {
    const lead = uri.charCodeAt(p);
    if (lead !== segment.first && lead !== segment.alsoFirst) return next[p] === 1 ? p : -1;
    lo = p + 1;
  }
  let hi = lo;
  while (hi < uri.length && accepts(segment, uri.charCodeAt(hi))) hi++;
  if (segment.maxLength !== undefined) hi = prefixEnd(uri, lo, hi, segment.maxLength);
  if (segment.maxItems !== undefined) hi = itemsEnd(uri, lo, hi, segment);
  if (preferred >= 0 && preferFirst) {
    for (let q = lo; q <= hi; q++) if (next[q] === 1 && uri.charCodeAt(q) === preferred) return q;
  } else if (preferred >= 0) {
    for (let q = hi; q >= lo; q--) if (next[q] === 1 && uri.charCodeAt(q) === preferred) return q;
  }
  for (let q = hi; q >= lo; q--) if (next[q] === 1) return q;
  // Nothing fits after the operator character: the expansion is empty (every variable undefined).
  return next[p] === 1 ? p : -1;
}

/** The furthest end, at most `hi`, of a span from `lo` holding at most `maxItems` `/`-separated items. */
function itemsEnd(uri: string, lo: number, hi: number, segment: ExpressionSegment): number {
  let separators = 0;
  for (let q = lo; q < hi; q++) {
    if (uri.charCodeAt(q) === 0x2f && ++separators >= (segment.maxItems ?? Infinity)) return q;
  }
  return hi;
}

/**
 * The furthest end, at most `hi`, of a span from `lo` that decodes to at most `limit` code points: a
 * UTF-8 continuation byte (`%80`..`%BF`) or the second half of a surrogate pair adds none. Scans at
 * most 12 characters per code point, so the work stays linear.
 */
function prefixEnd(uri: string, lo: number, hi: number, limit: number): number {
  let count = 0;
  let q = lo;
  while (q < hi) {
    const isTriplet = uri.charCodeAt(q) === 0x25 && q + 3 <= hi;
    const byte = isTriplet ? Number.parseInt(uri.slice(q + 1, q + 3), 16) : Number.NaN;
    const isContinuation = byte >= 0x80 && byte <= 0xbf;
    const width = isTriplet ? 3 : (uri.codePointAt(q) ?? 0) > 0xffff ? 2 : 1;
    if (!isContinuation && ++count > limit) return q;
    q = Math.min(hi, q + width);
  }
  return q;
}
