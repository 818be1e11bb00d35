// Capability rules, both directions: a method or notification the peer did not declare (LIFE-11
// and each feature's own requirement), sampling tools, elicitation modes and task augmentation,
// and in 2026-07-28 the input requests of an input_required result (S26-MRTR-3).

import type { Side } from '../transcript.ts';
import { CAPABILITY_GATES, TASK_GATES } from './capability-gates.ts';
import { otherSide } from './lint-state.ts';
import type { MessageContext } from './message-context.ts';
import { capabilityAt, isRecord, type JsonRecord } from './message-facts.ts';
import type { Reporter } from './reporter.ts';

/** A request or notification: the capability it needs of its receiver must have been declared. */
export function checkCapabilities(context: MessageContext): void {
  const { method, from, state } = context;
  if (method === undefined || !Object.hasOwn(CAPABILITY_GATES, method)) return;
  const gate = CAPABILITY_GATES[method]!;
  // A method sent the wrong way is the schema rule's to report.
  if (gate.sender !== 'both' && gate.sender !== from) return;
  const declarer: Side = gate.side === 'receiver' ? otherSide(from) : gate.side;
  if (context.isStateless && (declarer === 'client' || gate.stateless === undefined)) return;
  const capabilities = declarer === 'server' ? state.serverCapabilities : state.clientCapabilities;
  if (capabilities === undefined) return;
  // 2024-11-05 offered completion without a capability flag.
  if (method === 'completion/complete' && (state.revision ?? '') < '2025-03-26') return;
  if (!isDeclared(capabilityAt(capabilities, gate.path))) {
    const at = gate.path.join('.');
    const sender = from === 'client' ? 'the client' : 'the server';
    const where =
      declarer === 'client' || !context.isStateless ? 'in initialize' : 'in its server/discover result';
    // In 2026-07-28 a client may call inline; a server that did not declare the feature answers -32601.
    const isClientCall = context.isStateless && from === 'client';
    context.report.report(
      'capability-not-declared',
      `${sender} sent ${method}, but ${declarer === 'server' ? 'the server' : 'the client'} did not declare the "${at}" capability ${where} (it declared ${listDeclared(capabilities)}); use only what both sides declared`,
      {
        requirement: context.isStateless ? gate.stateless : gate.handshake,
        severity: isClientCall ? 'warning' : undefined,
      },
    );
    return;
  }
  checkDetails(context, method, capabilities);
}

/** An input_required result asks only for inputs its request's envelope declared (S26-MRTR-3). */
export function checkInputRequests(context: MessageContext): void {
  const { request, message, report } = context;
  const result = isRecord(message.result) ? message.result : undefined;
  if (request === undefined || result?.resultType !== 'input_required' || !isRecord(result.inputRequests))
    return;
  const capabilities = request.claimedCapabilities ?? {};
  for (const [key, input] of Object.entries(result.inputRequests)) {
    if (!isRecord(input) || typeof input.method !== 'string') continue;
    const gate = CAPABILITY_GATES[input.method];
    if (gate?.side !== 'client' || gate.sender !== 'server') continue;
    const params = isRecord(input.params) ? input.params : {};
    const missing = !isDeclared(capabilityAt(capabilities, gate.path))
      ? gate.path.join('.')
      : missingDetail(input.method, params, capabilities);
    if (missing !== undefined)
      report.report(
        'capability-not-declared',
        `the server asked for input "${key}" (${input.method}) of ${request.method}, but that request's clientCapabilities do not declare "${missing}"; ask only for inputs the request declared, or answer -32021`,
        { requirement: 'S26-MRTR-3' },
      );
  }
}

/** Sub-capabilities: sampling tools and context, elicitation modes, task augmentation. */
function checkDetails(context: MessageContext, method: string, capabilities: JsonRecord): void {
  const params = context.params ?? {};
  const missing = missingDetail(method, params, capabilities);
  if (missing !== undefined) {
    const isContext = missing === 'sampling.context';
    reportDetail(context.report, context.from, method, missing, {
      requirement: method === 'elicitation/create' ? 'ELIC-2' : isContext ? 'SAMP-4' : 'SAMP-3',
      isWarning: isContext,
    });
  }
  const task = Object.hasOwn(TASK_GATES, method) && 'task' in params ? TASK_GATES[method] : undefined;
  if (task !== undefined && !isDeclared(capabilityAt(capabilities, task.path)))
    reportDetail(context.report, context.from, method, task.path.join('.'), {
      requirement: task.requirement,
      isWarning: task.requirement === 'TASK-2',
    });
}

/** The sub-capability a sampling or elicitation request needs and that was not declared. */
function missingDetail(method: string, params: JsonRecord, capabilities: JsonRecord): string | undefined {
  if (method === 'sampling/createMessage') {
    if (
      ('tools' in params || 'toolChoice' in params) &&
      !isDeclared(capabilityAt(capabilities, ['sampling', 'tools']))
    )
      return 'sampling.tools';
    const context = params.includeContext;
    if (
      (context === 'thisServer' || context === 'allServers') &&
      !isDeclared(capabilityAt(capabilities, ['sampling', 'context']))
    )
      return 'sampling.context';
  }
  if (method === 'elicitation/create') {
    const mode = params.mode === 'url' ? 'url' : 'form';
    const elicitation = capabilityAt(capabilities, ['elicitation']);
    // An empty elicitation object is form mode only (ELIC-1).
    const isFormOnly = isRecord(elicitation) && Object.keys(elicitation).length === 0;
    if (!(mode === 'form' && isFormOnly) && !isDeclared(capabilityAt(capabilities, ['elicitation', mode])))
      return `elicitation.${mode}`;
  }
  return undefined;
}

function reportDetail(
  report: Reporter,
  from: Side,
  method: string,
  missing: string,
  options: { requirement: string; isWarning: boolean },
): void {
  const declarer = from === 'client' ? 'the server' : 'the client';
  report.report(
    'capability-not-declared',
    `${from === 'client' ? 'the client' : 'the server'} sent ${method} needing "${missing}", which ${declarer} did not declare; leave out what the peer did not declare`,
    { requirement: options.requirement, severity: options.isWarning ? 'warning' : undefined },
  );
}

/** A capability counts as declared when present and not `false` or `null`. */
function isDeclared(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}

function listDeclared(capabilities: JsonRecord): string {
  const keys = Object.keys(capabilities).filter((key) => isDeclared(capabilities[key]));
  return keys.length === 0 ? 'none' : keys.join(', ');
}
