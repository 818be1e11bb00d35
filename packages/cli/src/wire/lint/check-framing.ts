// Rules on what crossed the wire before it is a message at all: lines that are no JSON-RPC
// (STDIO-3/4), malformed envelopes and result-plus-error (BASE-2), and batches (BASE-8).

import type { InvalidEntry } from '../transcript.ts';
import type { LintState } from './lint-state.ts';
import type { MessageContext } from './message-context.ts';
import { isRecord } from './message-facts.ts';
import type { Reporter } from './reporter.ts';

/**
 * Why a line could not be read at all, in the words of the two recorders: `classifyLine` (tap's
 * raw lines) and the client's codec (`--record`, which sees decoded frames).
 */
const UNREADABLE =
  /^(?:blank line|not JSON|JSON that is not an object|an empty batch|a batch with a member that is not an object|Parse error|Invalid Request: expected a JSON object|Invalid Request: empty batch)/;
const BOTH_RESULT_AND_ERROR = /both "result" and "error"/;
/** The reader's own size limit (decode-line.ts): a line it refused, not necessarily a broken one. */
const OVERSIZE = /a message must be at most \d+ bytes/;

/** An `invalid` entry: a line (or frame) from `entry.from` that was no JSON-RPC message. */
export function checkInvalidLine(entry: InvalidEntry, state: LintState, report: Reporter): void {
  const text = describeText(entry);
  const id = idOf(entry.text);
  if (id !== undefined) state.addInvalidId(entry.from, id);
  const who = entry.from === 'server' ? 'the server' : 'the client';
  if (BOTH_RESULT_AND_ERROR.test(entry.reason)) {
    report.report(
      'result-and-error',
      `${who} sent a response with both "result" and "error"${text}; a response carries exactly one of them`,
    );
  } else if (OVERSIZE.test(entry.reason)) {
    report.report('invalid-message', `${who} sent a line the reader refused (${entry.reason})${text}`, {
      severity: 'warning',
    });
  } else if (UNREADABLE.test(entry.reason) && state.transport !== 'http') {
    if (entry.from === 'server')
      report.report(
        'stdout-not-json',
        `the server wrote a line to stdout that is no JSON-RPC message (${entry.reason})${text}; stdout carries only newline-delimited JSON-RPC messages, write logs to stderr`,
      );
    else
      report.report(
        'stdin-not-json',
        `the client wrote a line to the server's stdin that is no JSON-RPC message (${entry.reason})${text}; write only newline-delimited JSON-RPC messages`,
      );
  } else {
    report.report(
      'invalid-message',
      `${who} sent something that is no JSON-RPC 2.0 message (${entry.reason})${text}; every message is a JSON-RPC 2.0 request, notification or response`,
    );
  }
}

/**
 * The JSON-RPC 2.0 envelope of a recorded message (tap records any JSON object). Returns false
 * when the message is too broken for the other rules to read.
 */
export function checkEnvelopeShape(context: MessageContext): boolean {
  const { message, report, from } = context;
  const who = from === 'server' ? 'the server' : 'the client';
  if (message.jsonrpc !== '2.0') {
    report.report(
      'invalid-message',
      `${who} sent a message whose "jsonrpc" is ${JSON.stringify(message.jsonrpc) ?? 'missing'}; every JSON-RPC message carries "jsonrpc": "2.0"`,
    );
    context.isSchemaSkipped = true;
  }
  if ('method' in message && typeof message.method !== 'string') {
    report.report(
      'invalid-message',
      `${who} sent a message whose "method" is ${JSON.stringify(message.method)}, not a string`,
    );
    return false;
  }
  if (context.kind !== 'response') return true;
  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  if (hasResult && hasError) {
    report.report(
      'result-and-error',
      `${who} answered id ${JSON.stringify(message.id)} with both "result" and "error"; send exactly one: "result" on success, "error" on failure`,
    );
    context.isSchemaSkipped = true;
  } else if (!hasResult && !hasError) {
    report.report(
      'invalid-message',
      `${who} sent a message with neither "method", "result" nor "error": it is no request, notification or response`,
    );
    return false;
  }
  return true;
}

/** A member of a JSON-RPC batch: allowed only in 2025-03-26, and never for initialize (BASE-8). */
export function checkBatch(context: MessageContext): void {
  const { entry, state, report, method } = context;
  if (entry.batch === undefined) return;
  if (method === 'initialize') {
    report.report('batch-not-allowed', 'initialize was sent inside a JSON-RPC batch; send it on its own', {
      requirement: 'BASE-8',
    });
    return;
  }
  const revision = state.revision;
  if (revision === undefined || revision === '2025-03-26' || state.reportedBatch[entry.from] === entry.batch)
    return;
  state.reportedBatch[entry.from] = entry.batch;
  const who = entry.from === 'server' ? 'the server' : 'the client';
  report.report(
    'batch-not-allowed',
    `${who} sent a JSON-RPC batch (an array of messages), which ${revision} does not allow (only 2025-03-26 had batches); send each message on its own`,
  );
}

/** The original line when the recorder kept it, else nothing (the client's codec keeps only its reply). */
function describeText(entry: InvalidEntry): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(entry.text);
  } catch {
    parsed = undefined;
  }
  const isReadersReply =
    isRecord(parsed) &&
    isRecord(parsed.error) &&
    parsed.error.message === entry.reason &&
    !('result' in parsed);
  if (isReadersReply) return '';
  const shown = entry.text.length > 80 ? `${entry.text.slice(0, 80)}...` : entry.text;
  return `: ${JSON.stringify(shown)}`;
}

/** The id of a line that was JSON with a readable id (an error response may answer it). */
function idOf(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) && (typeof parsed.id === 'string' || typeof parsed.id === 'number')
      ? parsed.id
      : undefined;
  } catch {
    return undefined;
  }
}
