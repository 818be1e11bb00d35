// What kind of JSON-RPC message a transcript entry holds and the one line the report writes over
// its arrow: `#3 tools/call create_issue`, `#3 result`, `#3 error -32602`, `notifications/progress 1/3`.
// Transcripts hold peer data, so nothing here trusts a field's type.

/** The four JSON-RPC shapes (BASE-5, BASE-6, BASE-7), or none of them. */
export type MessageKind = 'request' | 'notification' | 'result' | 'error' | 'unknown';

/** A message as the report shows it. */
export interface MessageSummary {
  kind: MessageKind;
  /** The id as JSON (so `1` and `"1"` differ), for requests and responses that have one. */
  idKey?: string;
  /** The arrow's label. */
  label: string;
  /** A failure the label must show in words, not only in colour: `error -32602`, `tool error`. */
  failure?: string;
  /** More about it (an error's message), shown after the label. */
  detail?: string;
}

/** The longest subject (a tool name, a URI) kept in a label. */
const MAX_SUBJECT = 48;

/** Classifies and labels one message; total over any JSON object. */
export function summarizeMessage(message: object): MessageSummary {
  const value = message as Record<string, unknown>;
  const hasId = 'id' in value && (typeof value.id === 'string' || typeof value.id === 'number');
  const idKey = hasId ? JSON.stringify(value.id) : undefined;
  const ref = idKey === undefined ? '' : `#${shorten(idKey.startsWith('"') ? idKey : String(value.id))} `;
  const withId = idKey === undefined ? {} : { idKey };
  if (typeof value.method === 'string') {
    const subject = subjectOf(value.method, asRecord(value.params));
    const label = `${value.method}${subject === undefined ? '' : ` ${shorten(subject)}`}`;
    return hasId ? { kind: 'request', ...withId, label: ref + label } : { kind: 'notification', label };
  }
  if ('error' in value) {
    const error = asRecord(value.error);
    const code = typeof error?.code === 'number' ? String(error.code) : '?';
    const failure = `error ${code}`;
    const detail = typeof error?.message === 'string' ? error.message : undefined;
    return {
      kind: 'error',
      ...withId,
      label: `${ref}${failure}${idKey === undefined ? ' (no id)' : ''}`,
      failure,
      ...(detail === undefined ? {} : { detail }),
    };
  }
  if ('result' in value) {
    const result = asRecord(value.result);
    // 2026-07-28 results carry resultType (S26-BASE-3); only the unusual ones are worth a word.
    const type = typeof result?.resultType === 'string' ? result.resultType : 'complete';
    const label = `${ref}result${type === 'complete' ? '' : ` ${type}`}`;
    return result?.isError === true
      ? { kind: 'result', ...withId, label, failure: 'tool error' }
      : { kind: 'result', ...withId, label };
  }
  return { kind: 'unknown', label: 'not a JSON-RPC message', failure: 'invalid' };
}

/** The part of a request or notification worth naming beside its method, if any. */
function subjectOf(method: string, params: Record<string, unknown> | undefined): string | undefined {
  if (params === undefined) return undefined;
  switch (method) {
    case 'initialize':
      return text(params.protocolVersion);
    case 'completion/complete': {
      const ref = asRecord(params.ref);
      return text(ref?.name) ?? text(ref?.uri);
    }
    case 'logging/setLevel':
    case 'notifications/message':
      return text(params.level);
    case 'notifications/progress': {
      const progress = params.progress;
      if (typeof progress !== 'number') return undefined;
      return typeof params.total === 'number' ? `${progress}/${params.total}` : String(progress);
    }
    case 'notifications/cancelled':
      return params.requestId === undefined ? undefined : `#${String(params.requestId)}`;
    default:
      return text(params.name) ?? text(params.uri);
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function shorten(text: string): string {
  return text.length <= MAX_SUBJECT ? text : `${text.slice(0, MAX_SUBJECT - 1)}…`;
}

/**
 * The era the client's first request shows: `initialize` is the handshake era (its
 * protocolVersion named), a `_meta` protocol version (S26-META-2) the stateless era; undefined when neither.
 */
export function eraOf(clientRequests: Iterable<object>): string | undefined {
  for (const message of clientRequests) {
    const value = message as Record<string, unknown>;
    if (typeof value.method !== 'string' || !('id' in value)) continue;
    const params = asRecord(value.params);
    if (value.method === 'initialize')
      return `handshake era (initialize, protocolVersion ${text(params?.protocolVersion) ?? '?'})`;
    const version = text(asRecord(params?._meta)?.['io.modelcontextprotocol/protocolVersion']);
    return version === undefined ? undefined : `stateless era (${version})`;
  }
  return undefined;
}
