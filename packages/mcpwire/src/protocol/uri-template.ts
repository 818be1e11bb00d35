// RFC 6570 URI templates as MCP resource templates use them: parse once, expand variables into a URI
// (full Level 4), and match a URI back into variables (see uri-template-match.ts).

import { createMatcher, type MatchedVariables } from './uri-template-match.ts';
import {
  encodeText,
  isPctTriplet,
  parseTemplate,
  type ExpressionPart,
  type Operator,
  type TemplatePart,
  type VarSpec,
} from './uri-template-syntax.ts';

export type { MatchedVariables } from './uri-template-match.ts';

/** A variable's value: a string, a list, or an associative array (keys expand in insertion order). */
export type UriTemplateValue = string | readonly string[] | Readonly<Record<string, string>>;

/** Variables for `expand`; `undefined`, empty lists and empty associative arrays count as undefined. */
export type UriTemplateVariables = Readonly<Record<string, UriTemplateValue | undefined>>;

/**
 * A parsed RFC 6570 template. The constructor throws a `TypeError` for a malformed template;
 * instances are immutable, so one may be shared and used concurrently.
 */
export class UriTemplate {
  readonly #template: string;
  readonly #parts: readonly TemplatePart[];
  readonly #variableNames: readonly string[];
  readonly #match: (uri: string) => MatchedVariables | undefined;

  constructor(template: string) {
    this.#template = template;
    this.#parts = parseTemplate(template);
    const names = new Set<string>();
    for (const part of this.#parts) {
      if (part.kind === 'expression') for (const spec of part.varSpecs) names.add(spec.name);
    }
    this.#variableNames = [...names];
    this.#match = createMatcher(this.#parts);
  }

  /** Names of the template's variables, each once, in order of first appearance (a fresh array per call). */
  get variableNames(): string[] {
    return [...this.#variableNames];
  }

  /** Expands the template (RFC 6570 section 3); missing variables are undefined, never an error. */
  expand(variables: UriTemplateVariables): string {
    let out = '';
    for (const part of this.#parts) {
      out += part.kind === 'literal' ? part.text : expandExpression(part, variables);
    }
    return out;
  }

  /**
   * Returns the variables when `uri` is an expansion of this template, else undefined. Values are
   * percent-decoded; lists (and associative arrays, flattened) come back as string arrays. Where
   * expansion is ambiguous the match is one reading that expands back to the same variables: in
   * `{a,b}` missing variables are the trailing ones, `{a}{b}` gives `a` the longest span, and a
   * prefix variable next to another expression may fail to match. Runs in time linear in the URI;
   * URIs longer than 64 KiB never match.
   */
  match(uri: string): MatchedVariables | undefined {
    return this.#match(uri);
  }

  /** The original template string. */
  toString(): string {
    return this.#template;
  }
}

/** True when `text` contains a `{...}` expression, i.e. it is meant as a template rather than a plain URI. */
export function isTemplate(text: string): boolean {
  // Linear: `[^{}]+` cannot run past the next brace, so each character is scanned from one start at most.
  return /\{[^{}]+\}/.test(text);
}

function expandExpression(part: ExpressionPart, variables: UriTemplateVariables): string {
  const { operator } = part;
  const pieces: string[] = [];
  for (const spec of part.varSpecs) {
    // Own properties only: a variable named `constructor` must not pick up Object.prototype's.
    const value = Object.hasOwn(variables, spec.name) ? variables[spec.name] : undefined;
    const piece = expandVarSpec(operator, spec, value);
    if (piece !== undefined) pieces.push(piece);
  }
  return pieces.length === 0 ? '' : operator.first + pieces.join(operator.sep);
}

/** Expands one varspec per RFC 6570 Appendix A; undefined when the variable is undefined. */
function expandVarSpec(
  operator: Operator,
  spec: VarSpec,
  value: UriTemplateValue | null | undefined,
): string | undefined {
  if (value === undefined || value === null) return undefined;
  const encode = (text: string) => encodeText(text, operator.allowsReserved);
  if (typeof value !== 'object') {
    const text =
      spec.maxLength === undefined ? String(value) : truncate(String(value), spec.maxLength, operator);
    return named(operator, spec.name, encode(text));
  }
  // Prefix modifiers do not apply to composite values (RFC 6570 section 2.4.1); they are ignored here.
  const isList = Array.isArray(value);
  const pairs: ReadonlyArray<readonly [string, string]> = isList
    ? (value as readonly string[]).map((item) => ['', String(item)] as const)
    : Object.entries(value as Readonly<Record<string, string>>).map(([k, v]) => [k, String(v)] as const);
  if (pairs.length === 0) return undefined;
  if (!spec.isExploded) {
    const items = pairs.map(([key, item]) => (isList ? encode(item) : `${encode(key)},${encode(item)}`));
    return named(operator, spec.name, items.join(','));
  }
  const items = pairs.map(([key, item]) => {
    if (operator.isNamed) return named(operator, isList ? spec.name : encode(key), encode(item));
    return isList ? encode(item) : `${encode(key)}=${encode(item)}`;
  });
  return items.join(operator.sep);
}

function named(operator: Operator, name: string, encoded: string): string {
  if (!operator.isNamed) return encoded;
  return encoded === '' ? name + operator.ifEmpty : `${name}=${encoded}`;
}

/**
 * The first `maxLength` characters of `text`, counting code points, and for reserved expansion a
 * pct-encoded triplet as one character so it is never split (RFC 6570 section 2.4.1).
 */
function truncate(text: string, maxLength: number, operator: Operator): string {
  let i = 0;
  for (let count = 0; count < maxLength && i < text.length; count++) {
    if (operator.allowsReserved && isPctTriplet(text, i)) i += 3;
    else i += (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
  }
  return text.slice(0, i);
}
