// HTTP header rules. Handshake era: after initialize, every request carries MCP-Protocol-Version
// with the negotiated revision (HTTP-33, LIFE-10; 2025-06-18 and later). 2026-07-28: every POST
// carries it equal to the body's `_meta` version (S26-HTTP-11), plus Mcp-Method and Mcp-Name (S26-HTTP-12).
// A POST is checked when its message arrives: only the body says what the request was.

import { METHODS, type MethodSpec } from 'mcpwire';
import { decodeHeaderValue } from 'mcpwire/http';
import type { HttpRequestEntry } from '../transcript.ts';
import type { LintState } from './lint-state.ts';
import type { MessageContext } from './message-context.ts';
import { claimedVersion, headerOf, isStatelessRevision } from './message-facts.ts';
import type { Reporter } from './reporter.ts';

/** The first revision whose clients must send MCP-Protocol-Version (2025-11-25 checklist section 3). */
const FIRST_HEADER_REVISION = '2025-06-18';

/** The method table's rows by name, for the `Mcp-Name` parameter of a method (S26-HTTP-12). */
const ROWS: Readonly<Record<string, MethodSpec>> = METHODS;

/** A GET or DELETE, checked when it is sent (a POST waits for the message in its body: checkPostHeaders). */
export function checkHttpRequest(entry: HttpRequestEntry, state: LintState, report: Reporter): void {
  checkHandshakeVersionHeader(entry, state, report, {});
}

/** The first client message of a POST: the POST's headers checked against the body and the state. */
export function checkPostHeaders(context: MessageContext): void {
  const { state, report, method, posted } = context;
  if (posted === undefined) return;
  const place = { line: posted.line, t: posted.request.t };
  // The initialize POST comes before any negotiation.
  if (method === 'initialize') return;
  if (!context.hasStatelessClaim && !(state.era === 'stateless')) {
    checkHandshakeVersionHeader(posted.request, state, report, place);
    return;
  }
  const expected = context.kind === 'request' ? claimedVersion(context.meta) : state.revision;
  const version = headerOf(posted.request, 'mcp-protocol-version');
  const what = `the POST of ${method ?? 'a message'}`;
  if (version === undefined)
    report.report(
      'protocol-version-header',
      `${what} has no MCP-Protocol-Version header; every 2026-07-28 POST carries it${expected === undefined ? '' : `, here "${expected}"`}`,
      { ...place, requirement: 'S26-HTTP-11' },
    );
  else if (expected !== undefined && version !== expected)
    report.report(
      'protocol-version-header',
      `${what} has MCP-Protocol-Version "${version}" but its _meta names "${expected}"; the header must equal the body's version`,
      { ...place, requirement: 'S26-HTTP-11' },
    );
  if (context.kind === 'request' && method !== undefined) checkMethodHeaders(context, posted.request, place);
}

/** Mcp-Method on every 2026-07-28 request, Mcp-Name where the method has a name (S26-HTTP-12). */
function checkMethodHeaders(
  context: MessageContext,
  request: HttpRequestEntry,
  place: { line: number | undefined; t: number },
): void {
  const method = context.method!;
  const sent = headerOf(request, 'mcp-method');
  const decoded = sent === undefined ? undefined : decodeHeaderValue(sent);
  if (sent === undefined || decoded !== method)
    context.report.report(
      'method-header',
      sent === undefined
        ? `the POST of ${method} has no Mcp-Method header; send Mcp-Method: ${method} on every 2026-07-28 request`
        : `the POST of ${method} has Mcp-Method "${sent}"; it must be the body's method, "${method}"`,
      place,
    );
  const param = Object.hasOwn(ROWS, method) ? ROWS[method]!.nameParam : undefined;
  const value = param === undefined ? undefined : context.params?.[param];
  if (typeof value !== 'string') return;
  const name = headerOf(request, 'mcp-name');
  const decodedName = name === undefined ? undefined : decodeHeaderValue(name);
  if (decodedName?.trim() !== value)
    context.report.report(
      'method-header',
      name === undefined
        ? `the POST of ${method} has no Mcp-Name header; send Mcp-Name with params.${param} (${JSON.stringify(value)})`
        : `the POST of ${method} has Mcp-Name "${name}", which is not params.${param} (${JSON.stringify(value)}); mirror it exactly (base64 for non-ASCII)`,
      place,
    );
}

/** After initialize (2025-06-18 and later), every request names the negotiated revision. */
function checkHandshakeVersionHeader(
  request: HttpRequestEntry,
  state: LintState,
  report: Reporter,
  place: { line?: number | undefined; t?: number },
): void {
  const { revision } = state;
  if (state.era !== 'handshake' || revision === undefined || isStatelessRevision(revision)) return;
  if (state.phase === 'none' || state.phase === 'initialize-sent' || revision < FIRST_HEADER_REVISION) return;
  const version = headerOf(request, 'mcp-protocol-version');
  if (version === undefined)
    report.report(
      'protocol-version-header',
      `the HTTP ${request.method} after initialize has no MCP-Protocol-Version header; send MCP-Protocol-Version: ${revision} (the negotiated revision) on every request`,
      { ...place, requirement: 'HTTP-33' },
    );
  else if (version !== revision)
    report.report(
      'protocol-version-header',
      `the HTTP ${request.method} has MCP-Protocol-Version "${version}", but initialize negotiated ${revision}; send the negotiated revision`,
      { ...place, requirement: 'LIFE-10' },
    );
}
