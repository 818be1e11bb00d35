// Issue 23: the transport contract is messages. Two rules over the library's sources: the contract
// (`transports/channel.ts`) names nothing of HTTP, and no module outside the HTTP code acts on SSE or
// on HTTP status codes. Read with the TypeScript compiler API, so unrelated numbers do not match.

import ts from 'typescript';

/** The transport contract: its text (comments included) names no HTTP word. */
export const CONTRACT = 'transports/channel.ts';

/**
 * Where HTTP is the subject, so SSE and status codes may be named: the HTTP transports, and `auth/`,
 * which speaks fetch/Request/Response only (the OAuth client wraps fetch and reads 401/403; the
 * resource server answers 401/403/503 with challenges; the metadata fetches follow 3xx and read 404).
 */
export const HTTP_PLACES = ['transports/http/', 'auth/'];

/**
 * The words the contract may not use, matched on whole words after camelCase is split (`closeStream`
 * is "close Stream"): the protocol (`http`, `https`), its streams (`sse`, `server-sent`,
 * `event-stream`, `stream`: a channel carries messages, not streams), its message parts (`header`,
 * `status`, `url`), its methods in capitals (`POST`, `GET`, `DELETE`) and the MCP headers (`Mcp-*`).
 * "request" and "response" stay: they are JSON-RPC's words too.
 */
const CONTRACT_WORDS = [
  /\b(https?|sse|server-sent|event-stream|streams?|headers?|status(es)?|urls?)\b/i,
  /\b(POST|GET|DELETE)\b/,
  /\bmcp-[a-z]/i,
];

/** SSE as code names it: an identifier word `sse` (camelCase split), or in a string the name or MIME type. */
const SSE_WORD = /\bsse\b/i;
const SSE_TEXT = /\b(sse|server-sent events?|text\/event-stream)\b/i;
/** A status code written in a string: "HTTP 404", "HTTP/1.1 503". */
const STATUS_TEXT = /\bHTTP(\/\d(\.\d)?)?\s+[45]\d\d\b/i;
/** A name that holds an HTTP status: `status`, `statusCode`, `response.status`, `httpStatus`. */
const STATUS_NAME = /(^|\.|\b)(status|statusCode|httpStatus)$/i;

/** `closeStream` -> `close Stream`, `SSEStream` -> `SSE Stream`, so word boundaries see camelCase. */
export function splitCamel(text: string): string {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
}

/** The HTTP words in the contract's text, one line each (`line N: "word"`). */
export function contractWords(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const words = splitCamel(line);
    for (const pattern of CONTRACT_WORDS) {
      const match = pattern.exec(words);
      if (match) found.push(`line ${index + 1}: "${match[0]}"`);
    }
  });
  return found;
}

/**
 * Where the code of a module names SSE or an HTTP status code, one line each. Comments are not code:
 * they may cite what a transport does (a spec's "answered with HTTP 400"). A number counts as a status
 * only in a status position: compared with, assigned to or declared as a `status`, in an array whose
 * `includes`/`indexOf` is asked a status, or a `case` of a switch over one; `cacheSize ?? 500` is not.
 */
export function httpWordsInCode(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const where = (node: ts.Node): string =>
    `line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      if (SSE_WORD.test(splitCamel(node.text))) found.push(`${where(node)}: names SSE ("${node.text}")`);
    } else if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const value = node.text;
      if (SSE_TEXT.test(value)) found.push(`${where(node)}: names SSE in "${value}"`);
      else if (STATUS_TEXT.test(value)) found.push(`${where(node)}: an HTTP status in "${value}"`);
      else if (/^[45]\d\d$/.test(value) && isStatusPosition(node))
        found.push(`${where(node)}: HTTP status ${value}`);
    } else if (ts.isNumericLiteral(node)) {
      const value = Number(node.text);
      if (value >= 400 && value <= 599 && Number.isInteger(value) && isStatusPosition(node))
        found.push(`${where(node)}: HTTP status ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Nodes a value passes through unchanged on its way to where it is used. */
function isTransparent(node: ts.Node): boolean {
  return (
    ts.isParenthesizedExpression(node) ||
    ts.isArrayLiteralExpression(node) ||
    ts.isConditionalExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isLiteralTypeNode(node) ||
    ts.isUnionTypeNode(node) ||
    ts.isParenthesizedTypeNode(node) ||
    (ts.isBinaryExpression(node) &&
      [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(node.operatorToken.kind))
  );
}

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
]);

function namesStatus(node: ts.Node | undefined): boolean {
  if (node === undefined) return false;
  const text = ts.isIdentifier(node) || ts.isStringLiteral(node) ? node.text : node.getText();
  return STATUS_NAME.test(text.trim());
}

/** True when the literal `node` is used as an HTTP status (see httpWordsInCode). */
function isStatusPosition(node: ts.Node): boolean {
  let child: ts.Node = node;
  let parent = node.parent;
  while (parent !== undefined && isTransparent(parent)) {
    child = parent;
    parent = parent.parent;
  }
  if (parent === undefined) return false;
  if (ts.isBinaryExpression(parent) && COMPARISONS.has(parent.operatorToken.kind))
    return namesStatus(parent.left === child ? parent.right : parent.left);
  if (
    (ts.isPropertyAssignment(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isVariableDeclaration(parent) ||
      ts.isParameter(parent) ||
      ts.isBinaryExpression(parent)) &&
    child !== (ts.isBinaryExpression(parent) ? parent.left : parent.name)
  )
    return namesStatus(ts.isBinaryExpression(parent) ? parent.left : parent.name);
  if (ts.isPropertyAccessExpression(parent) && ts.isCallExpression(parent.parent)) {
    const method = parent.name.text;
    return ['includes', 'indexOf', 'has'].includes(method) && namesStatus(parent.parent.arguments[0]);
  }
  if (ts.isCaseClause(parent)) return namesStatus(parent.parent.parent.expression);
  return false;
}
