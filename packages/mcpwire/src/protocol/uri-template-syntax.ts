// RFC 6570 syntax shared by expansion and matching: the operator table, character sets,
// percent-encoding, and the parser that turns a template string into literal and expression parts.

/** How one operator expands its variables (RFC 6570 Appendix A); `char` is '' for a simple expression. */
export interface Operator {
  readonly char: string;
  readonly first: string;
  readonly sep: string;
  readonly isNamed: boolean;
  readonly ifEmpty: string;
  readonly allowsReserved: boolean;
}

const op = (
  char: string,
  first: string,
  sep: string,
  isNamed: boolean,
  ifEmpty: string,
  allowsReserved: boolean,
) => ({ char, first, sep, isNamed, ifEmpty, allowsReserved }) satisfies Operator;

const SIMPLE = op('', '', ',', false, '', false);

/** The operators of RFC 6570 Level 4, keyed by their character. */
export const OPERATORS: ReadonlyMap<string, Operator> = new Map([
  ['+', op('+', '', ',', false, '', true)],
  ['#', op('#', '#', ',', false, '', true)],
  ['.', op('.', '.', '.', false, '', false)],
  ['/', op('/', '/', '/', false, '', false)],
  [';', op(';', ';', ';', true, '', false)],
  ['?', op('?', '?', '&', true, '=', false)],
  ['&', op('&', '&', '&', true, '=', false)],
]);

/** Operator characters RFC 6570 section 2.2 sets aside for future extensions. */
const RESERVED_OPERATORS = '=,!@|';

/** One variable of an expression: `name`, `name:maxLength` (prefix modifier) or `name*` (explode). */
export interface VarSpec {
  readonly name: string;
  readonly maxLength: number | undefined;
  readonly isExploded: boolean;
}

/** A literal run of the template, kept in the percent-encoded form that expansion copies out. */
export interface LiteralPart {
  readonly kind: 'literal';
  readonly text: string;
}

/** One `{...}` expression: its operator and its variables in template order. */
export interface ExpressionPart {
  readonly kind: 'expression';
  readonly operator: Operator;
  readonly varSpecs: readonly VarSpec[];
}

/** A parsed template is a sequence of literal and expression parts, never two literals in a row. */
export type TemplatePart = LiteralPart | ExpressionPart;

/** Longest template accepted, in UTF-16 code units, so parsing and matching work stays bounded. */
export const MAX_TEMPLATE_LENGTH = 8 * 1024;

/** Most expressions one template may hold. */
export const MAX_EXPRESSIONS = 100;

/** True for RFC 3986 unreserved characters: ALPHA / DIGIT / "-" / "." / "_" / "~". */
export function isUnreserved(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x7e
  );
}

/** True for RFC 3986 reserved characters: gen-delims and sub-delims. */
export function isReserved(code: number): boolean {
  return code < 0x80 && ":/?#[]@!$&'()*+,;=".includes(String.fromCharCode(code));
}

function isHexDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/** True when `text` holds a pct-encoded triplet (`%` and two hex digits) at `index`. */
export function isPctTriplet(text: string, index: number): boolean {
  return (
    text.charCodeAt(index) === 0x25 &&
    isHexDigit(text.charCodeAt(index + 1)) &&
    isHexDigit(text.charCodeAt(index + 2))
  );
}

/**
 * Percent-encodes `text` as UTF-8, keeping unreserved characters, and with `allowsReserved` also reserved
 * characters and existing pct-encoded triplets (RFC 6570 section 3.2.1). Lone surrogates become U+FFFD.
 */
export function encodeText(text: string, allowsReserved: boolean): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isUnreserved(code) || (allowsReserved && (isReserved(code) || isPctTriplet(text, i)))) {
      out += text[i];
    } else if (code < 0x80) {
      out += `%${code < 0x10 ? '0' : ''}${code.toString(16).toUpperCase()}`;
    } else {
      const point = text.codePointAt(i) ?? code;
      const isPair = point > 0xffff;
      const isLoneSurrogate = !isPair && code >= 0xd800 && code <= 0xdfff;
      out += isLoneSurrogate ? '%EF%BF%BD' : encodeURIComponent(String.fromCodePoint(point));
      if (isPair) i++;
    }
  }
  return out;
}

/**
 * Parses an RFC 6570 Level 4 template; throws a `TypeError` naming the position of the first error
 * (unclosed or stray brace, reserved operator, bad variable name, prefix outside 1..9999, too long).
 */
export function parseTemplate(template: string): TemplatePart[] {
  if (template.length > MAX_TEMPLATE_LENGTH) {
    throw new TypeError(
      `URI template is ${template.length} characters long; at most ${MAX_TEMPLATE_LENGTH} are allowed`,
    );
  }
  const parts: TemplatePart[] = [];
  let literalStart = 0;
  let expressions = 0;
  let i = 0;
  while (i < template.length) {
    const ch = template[i];
    if (ch === '}') throw syntaxError(template, i, "'}' without a matching '{'");
    if (ch !== '{') {
      i++;
      continue;
    }
    if (i > literalStart)
      parts.push({ kind: 'literal', text: encodeText(template.slice(literalStart, i), true) });
    const close = findClose(template, i);
    if (++expressions > MAX_EXPRESSIONS) {
      throw syntaxError(template, i, `more than ${MAX_EXPRESSIONS} expressions`);
    }
    parts.push(parseExpression(template, i + 1, close));
    i = close + 1;
    literalStart = i;
  }
  if (i > literalStart) parts.push({ kind: 'literal', text: encodeText(template.slice(literalStart), true) });
  return parts;
}

function findClose(template: string, open: number): number {
  for (let j = open + 1; j < template.length; j++) {
    if (template[j] === '}') return j;
    if (template[j] === '{')
      throw syntaxError(template, j, "'{' inside an expression (expressions do not nest)");
  }
  throw syntaxError(template, open, "'{' is never closed");
}

function parseExpression(template: string, start: number, end: number): ExpressionPart {
  if (start === end) throw syntaxError(template, start - 1, 'empty expression');
  const lead = template[start] ?? '';
  const operator = OPERATORS.get(lead);
  if (operator === undefined && RESERVED_OPERATORS.includes(lead)) {
    throw syntaxError(template, start, `operator '${lead}' is reserved for future extensions`);
  }
  const varSpecs: VarSpec[] = [];
  const stop = parseVarSpecs(template, operator === undefined ? start : start + 1, end, varSpecs);
  if (stop !== end) throw syntaxError(template, stop, `expected ',' or '}' but found '${template[stop]}'`);
  return { kind: 'expression', operator: operator ?? SIMPLE, varSpecs };
}

/** Parses `varspec *( "," varspec )` from `i`, appending to `out`; returns where parsing stopped. */
function parseVarSpecs(template: string, i: number, end: number, out: VarSpec[]): number {
  for (;;) {
    const nameStart = i;
    while (i < end) {
      const code = template.charCodeAt(i);
      if (code === 0x5f || isAlphaNumeric(code)) i++;
      else if (isPctTriplet(template, i)) i += 3;
      else if (code === 0x2e && i > nameStart && template[i - 1] !== '.') i++;
      else break;
    }
    // varname = varchar *( ["."] varchar ): a dot must sit between two name characters.
    if (i === nameStart) {
      const found = i === end ? "'}'" : `'${template[i]}'`;
      throw syntaxError(template, i, `expected a variable name but found ${found}`);
    }
    if (template[i - 1] === '.')
      throw syntaxError(template, i - 1, "'.' in a variable name must be followed by a name character");
    const name = template.slice(nameStart, i);
    let maxLength: number | undefined;
    let isExploded = false;
    if (template[i] === ':') {
      const digitsStart = i + 1;
      let j = digitsStart;
      while (j < end && template.charCodeAt(j) >= 0x30 && template.charCodeAt(j) <= 0x39) j++;
      const digits = template.slice(digitsStart, j);
      if (digits === '' || digits.startsWith('0') || digits.length > 4) {
        throw syntaxError(template, i, `prefix modifier must be an integer from 1 to 9999, got ':${digits}'`);
      }
      maxLength = Number(digits);
      i = j;
    } else if (template[i] === '*') {
      isExploded = true;
      i++;
    }
    out.push({ name, maxLength, isExploded });
    if (template[i] !== ',' || i >= end) return i;
    i++;
  }
}

function isAlphaNumeric(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39);
}

function syntaxError(template: string, position: number, reason: string): TypeError {
  const shown = template.length > 80 ? `${template.slice(0, 77)}...` : template;
  return new TypeError(`Invalid URI template "${shown}" at position ${position}: ${reason}`);
}
