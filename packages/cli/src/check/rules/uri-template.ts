// spec/uri-template: a resource template's uriTemplate is an RFC 6570 URI Template (RES-2). Checks
// the syntax of RFC 6570 section 2 (literals, expressions, operators, varspecs, modifiers).

import type { CheckFinding } from '../check-finding.ts';
import type { Definition } from '../definition.ts';
import { findingOf } from '../report.ts';

/** A varspec: the varname, then an optional prefix (":" 1 to 4 digits, at most 9999) or explode ("*"). */
const VARSPEC = /^([^:*]*)(:[1-9][0-9]{0,3}|\*)?$/;
/** RFC 6570 section 2.3: varchar = ALPHA / DIGIT / "_" / pct-encoded; dots only between varchars. */
const VARNAME_CHARS = /^[A-Za-z0-9_.%]+$/;

/** True when `varspec` is a varname with an optional modifier (RFC 6570 section 2.3, 2.4). */
function isVarspec(varspec: string): boolean {
  const name = VARSPEC.exec(varspec)?.[1];
  return (
    name !== undefined &&
    VARNAME_CHARS.test(name) &&
    !name.startsWith('.') &&
    !name.endsWith('.') &&
    !name.includes('..') &&
    !/%(?![0-9A-Fa-f]{2})/.test(name)
  );
}
/** Section 2.2: the operators, including the reserved ones (= , ! @ |) which an expression must not use. */
const OPERATORS = '+#./;?&';
const RESERVED_OPERATORS = '=,!@|';
/** Section 2.1: characters a literal must not contain (besides "{" and "}"), pct-encoding aside. */
const BAD_LITERAL = /[\u0000-\u0020"'<>\\^`|]/;

/** Why `template` is no RFC 6570 URI Template, or undefined when it is one. */
export function uriTemplateError(template: string): string | undefined {
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    const literal = template.slice(at, open < 0 ? undefined : open);
    const badLiteral = literalError(literal, at);
    if (badLiteral !== undefined) return badLiteral;
    if (open < 0) return undefined;
    const close = template.indexOf('}', open);
    const nextOpen = template.indexOf('{', open + 1);
    if (close < 0 || (nextOpen >= 0 && nextOpen < close))
      return `the expression at offset ${open} is not closed with "}"`;
    const expressionError = checkExpression(template.slice(open + 1, close));
    if (expressionError !== undefined) return `the expression at offset ${open} ${expressionError}`;
    at = close + 1;
  }
  return undefined;
}

function literalError(literal: string, offset: number): string | undefined {
  const close = literal.indexOf('}');
  if (close >= 0) return `a "}" at offset ${offset + close} closes no expression`;
  const bad = BAD_LITERAL.exec(literal);
  if (bad !== null)
    return `the character ${JSON.stringify(bad[0])} at offset ${offset + bad.index} is not allowed outside an expression`;
  const percent = /%(?![0-9A-Fa-f]{2})/.exec(literal);
  if (percent !== null) return `the "%" at offset ${offset + percent.index} starts no percent-encoding`;
  return undefined;
}

function checkExpression(body: string): string | undefined {
  if (body === '') return 'is empty';
  const first = body[0]!;
  if (RESERVED_OPERATORS.includes(first)) return `uses the reserved operator ${JSON.stringify(first)}`;
  const list = OPERATORS.includes(first) ? body.slice(1) : body;
  for (const varspec of list.split(','))
    if (!isVarspec(varspec))
      return `has the variable ${JSON.stringify(varspec)}, which is no varname with an optional :prefix or *`;
  return undefined;
}

/** spec/uri-template for every resource template. */
export function checkUriTemplates(definitions: readonly Definition[]): CheckFinding[] {
  const findings: CheckFinding[] = [];
  for (const definition of definitions) {
    if (definition.kind !== 'resourceTemplate') continue;
    const error = uriTemplateError(definition.name);
    if (error !== undefined)
      findings.push(
        findingOf('spec/uri-template', definition, {
          message: `the uriTemplate is no RFC 6570 URI Template: ${error}`,
          fix: 'write variables as {name}, {+name}, {?a,b} ... (RFC 6570 section 2) and percent-encode other braces',
        }),
      );
  }
  return findings;
}
