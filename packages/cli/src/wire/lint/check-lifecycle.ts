// The handshake-era order (LIFE-1..LIFE-6): initialize is the first exchange; the client sends
// nothing but ping before its result and nothing before notifications/initialized; the server
// sends no request but ping before notifications/initialized (logging is always allowed).

import { METHODS, type MethodSpec } from 'mcpwire';
import type { MessageContext } from './message-context.ts';

/**
 * What a side may send before the handshake is done, whatever the phase: the method table's rows
 * marked `isAllowedBeforeInit` (initialize, ping, log, progress and cancellation).
 */
const ALWAYS_ALLOWED: ReadonlySet<string> = allowedBeforeInit(METHODS);

function allowedBeforeInit(rows: Readonly<Record<string, MethodSpec>>): ReadonlySet<string> {
  const methods = Object.keys(rows).filter((method) => rows[method]!.isAllowedBeforeInit === true);
  return new Set(methods);
}

/** A request or notification of the handshake era, checked against how far the handshake got. */
export function checkHandshakeOrder(context: MessageContext): void {
  const { state, method, from } = context;
  if (!state.isHandshakeEra || method === undefined || ALWAYS_ALLOWED.has(method)) return;
  // A dual-era client's server/discover probe is 2026-07-28 traffic, which has no handshake.
  if (context.hasStatelessClaim) return;
  if (from === 'client') checkClient(context, method);
  else checkServer(context, method);
}

function checkClient(context: MessageContext, method: string): void {
  const { state, report, kind } = context;
  if (method === 'notifications/initialized') {
    if (state.phase === 'none' || state.phase === 'initialize-sent')
      report.report(
        'before-handshake',
        'the client sent notifications/initialized before the initialize result arrived; send it after a successful initialize response',
        { requirement: 'LIFE-4' },
      );
    return;
  }
  switch (state.phase) {
    case 'none':
      report.report(
        'before-handshake',
        `the client sent ${method} before initialize; initialization is the first exchange of a connection: send initialize first (or, for 2026-07-28, put the _meta envelope on every request)`,
        { requirement: 'LIFE-1' },
      );
      return;
    case 'initialize-sent':
      if (kind === 'request')
        report.report(
          'before-handshake',
          `the client sent ${method} before the initialize result arrived; wait for the result (only ping may go earlier)`,
          { requirement: 'LIFE-5', severity: 'warning' },
        );
      else
        report.report(
          'before-handshake',
          `the client sent ${method} before the initialize result arrived; initialization is the first exchange`,
          { requirement: 'LIFE-1' },
        );
      return;
    case 'initialize-answered':
      report.report(
        'before-handshake',
        `the client sent ${method} before notifications/initialized; send notifications/initialized right after the initialize result`,
        { requirement: 'LIFE-4', severity: 'warning' },
      );
      return;
    case 'initialized':
      return;
  }
}

function checkServer(context: MessageContext, method: string): void {
  const { state, report, kind } = context;
  if (state.phase === 'none' || state.phase === 'initialize-sent') {
    report.report(
      'before-handshake',
      `the server sent ${method} before it answered initialize; initialization is the first exchange: answer initialize first`,
      { requirement: 'LIFE-1' },
    );
    return;
  }
  if (state.phase === 'initialize-answered' && kind === 'request')
    report.report(
      'before-handshake',
      `the server sent ${method} before the client's notifications/initialized; wait for it before sending requests (only ping and logging may go earlier)`,
      { requirement: 'LIFE-6', severity: 'warning' },
    );
}
