// 2026-07-28 rules with no handshake-era counterpart: every request carries the `_meta` envelope
// (S26-META-2) and every result a `resultType` (S26-BASE-3).

import { MetaKey } from 'mcpwire';
import type { MessageContext } from './message-context.ts';
import { isRecord } from './message-facts.ts';

/** A 2026-07-28 client request: params._meta names the version and the client capabilities (clientInfo SHOULD). */
export function checkEnvelope(context: MessageContext): void {
  const { report, method, from, params, meta } = context;
  if (!context.isStateless || from !== 'client') return;
  const what = `the client sent ${method ?? 'a request'}`;
  const needs = `${MetaKey.protocolVersion} and ${MetaKey.clientCapabilities}`;
  context.reportedMissing.push('params', '_meta', MetaKey.protocolVersion, MetaKey.clientCapabilities);
  if (params === undefined || meta === undefined) {
    report.report(
      'envelope-key-missing',
      `${what} without ${params === undefined ? 'params' : 'params._meta'}; every 2026-07-28 request carries params._meta with ${needs}`,
    );
    return;
  }
  const missing = [MetaKey.protocolVersion, MetaKey.clientCapabilities].filter((key) => !(key in meta));
  if (missing.length > 0)
    report.report(
      'envelope-key-missing',
      `${what} without ${missing.join(' and ')} in params._meta; every 2026-07-28 request names its version and its capabilities ({} for none)`,
    );
  else if (!(MetaKey.clientInfo in meta))
    report.report(
      'envelope-key-missing',
      `${what} without ${MetaKey.clientInfo} in params._meta; send the client's name and version on every request`,
      { severity: 'warning' },
    );
}

/** A server's result to a 2026-07-28 request names its `resultType` ("complete", "input_required", ...). */
export function checkResultType(context: MessageContext): void {
  const { message, request, report, from } = context;
  if (from !== 'server' || request?.isStateless !== true || !isRecord(message.result)) return;
  context.reportedMissing.push('resultType');
  if (!('resultType' in message.result))
    report.report(
      'result-type-missing',
      `the server's result to ${request.method} has no "resultType"; every 2026-07-28 result says "complete" (or "input_required", or an extension's value)`,
    );
}
