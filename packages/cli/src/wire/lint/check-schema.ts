// The schema rule: each message against the official JSON Schema of its revision, by the definition
// its method (or, for a result, its request's method) calls for; a method its side may not send; a
// method the revision does not define. Messages wait while their revision is not known yet.

import type { Side } from '../transcript.ts';
import type { Finding } from './finding.ts';
import type { JsonRecord, MessageKind } from './message-facts.ts';
import { isStatelessRevision, isRecord } from './message-facts.ts';
import { createFinding } from './reporter.ts';
import { loadRevisionSchema, schemaRevisions, type RevisionSchema } from './revision-schema.ts';
import type { RuleId, Severity } from './rules.ts';

/** The revision messages are checked against when the transcript never settled one (no handshake seen). */
const FALLBACK_REVISION = '2025-11-25';

/** How many messages may wait for their revision (a connection that never negotiates one stays bounded). */
const MAX_WAITING = 1024;

/** What a check with nothing to report returns (shared: most messages allocate nothing here). */
const NONE: readonly Finding[] = Object.freeze([]);

/** One message to validate, with what is needed to pick its definition. */
export interface SchemaItem {
  readonly message: JsonRecord;
  readonly kind: MessageKind;
  readonly from: Side;
  /** The revision it belongs to; undefined while not known (it then waits). */
  readonly revision: string | undefined;
  /** For a response: the method of the request it answers, and whether that request carried a task. */
  readonly call: { method: string; isTaskAugmented: boolean } | undefined;
  readonly isStateless: boolean;
  readonly line: number | undefined;
  readonly t: number;
  /** Required properties another rule already reported missing. */
  readonly reportedMissing: readonly string[];
}

/** Validates messages as their revision becomes known. One per Linter. */
export class SchemaCheck {
  readonly #waiting: SchemaItem[] = [];
  readonly #unknownRevisions = new Set<string>();
  /** The revision last validated against, and its schema: nearly every message has the same one. */
  #last: { revision: string; schema: RevisionSchema | undefined } | undefined;

  /**
   * Validates `item` now, or keeps it until {@link drain} gets a revision. At most MAX_WAITING
   * wait: past that the oldest is checked against the fallback revision, as at the end.
   */
  check(item: SchemaItem): readonly Finding[] {
    if (item.revision === undefined) {
      this.#waiting.push(item);
      if (this.#waiting.length <= MAX_WAITING) return NONE;
      return this.#validate(this.#waiting.shift()!, FALLBACK_REVISION);
    }
    return this.#validate(item, item.revision);
  }

  /** How many messages wait for their revision (at most MAX_WAITING). */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Validates the waiting messages against `revision`, once it is known. */
  drain(revision: string | undefined): readonly Finding[] {
    if (revision === undefined || this.#waiting.length === 0) return NONE;
    return this.#waiting.splice(0).flatMap((item) => this.#validate(item, revision));
  }

  /** The end of the transcript: what still waits is checked against the latest handshake-era revision. */
  finish(): readonly Finding[] {
    return this.drain(FALLBACK_REVISION);
  }

  #validate(item: SchemaItem, revision: string): readonly Finding[] {
    if (this.#last?.revision !== revision) this.#last = { revision, schema: loadRevisionSchema(revision) };
    const { schema } = this.#last;
    if (schema === undefined) {
      if (this.#unknownRevisions.has(revision)) return NONE;
      this.#unknownRevisions.add(revision);
      return [
        this.#finding(
          item,
          'revision-unknown',
          `revision ${JSON.stringify(revision)} has no official schema in this mcpwire (it has ${schemaRevisions().join(', ')}); its messages are not schema-checked`,
        ),
      ];
    }
    if (item.kind !== 'response') return this.#checkCall(schema, item);
    const found = this.#checkResponse(schema, item);
    return found === undefined ? NONE : [found];
  }

  #checkCall(schema: RevisionSchema, item: SchemaItem): readonly Finding[] {
    const method = String(item.message.method);
    const kind = item.kind === 'request' ? 'request' : 'notification';
    const definition = (kind === 'request' ? schema.requests : schema.notifications).get(method);
    const senders = schema.senders[item.from];
    const isAllowed = (kind === 'request' ? senders.requests : senders.notifications).has(method);
    const envelope = kind === 'request' ? schema.envelope.request : schema.envelope.notification;
    const who = item.from === 'server' ? 'the server' : 'the client';
    if (definition === undefined) {
      const unknown = this.#finding(
        item,
        'unknown-method',
        `${who} sent ${kind} ${method}, which ${schema.revision} does not define; check the name, or whether the method was removed in this revision`,
      );
      const invalid = this.#invalid(schema, item, envelope, item.message, `${kind} ${method}`);
      return invalid === undefined ? [unknown] : [unknown, invalid];
    }
    if (!isAllowed) {
      const why =
        isStatelessRevision(schema.revision) && item.from === 'server' && kind === 'request'
          ? 'in 2026-07-28 a server sends no requests (input goes in an input_required result)'
          : `only the ${item.from === 'server' ? 'client' : 'server'} sends it`;
      return [
        this.#finding(
          item,
          'schema-violation',
          `${who} sent ${kind} ${method}, which a ${item.from} may not send in ${schema.revision}: ${why}`,
        ),
      ];
    }
    const invalid =
      this.#invalid(schema, item, envelope, item.message, `${kind} ${method}`) ??
      this.#invalid(schema, item, definition, item.message, `${kind} ${method}`);
    return invalid === undefined ? NONE : [invalid];
  }

  #checkResponse(schema: RevisionSchema, item: SchemaItem): Finding | undefined {
    const { message, call } = item;
    // An error answering a server's request is JSON-RPC's due reply to an invalid request: the request was the fault.
    if (isStatelessRevision(schema.revision) && item.from === 'client' && 'result' in message)
      return this.#finding(
        item,
        'schema-violation',
        'the client sent a result, but in 2026-07-28 clients send requests and notifications only (input goes in inputResponses of a retried request)',
      );
    const to = call === undefined ? '' : ` to ${call.method}`;
    if ('error' in message && !('result' in message)) {
      const code = isRecord(message.error) ? message.error.code : undefined;
      const specific = typeof code === 'number' ? schema.errorsByCode.get(code) : undefined;
      return (
        this.#invalid(schema, item, schema.envelope.error, message, `error response${to}`) ??
        (specific === undefined
          ? undefined
          : this.#invalid(schema, item, specific, message, `error response${to}`))
      );
    }
    const envelope = this.#invalid(schema, item, schema.envelope.result, message, `result${to}`);
    if (envelope !== undefined || call === undefined) return envelope;
    const result = isRecord(message.result) ? message.result : {};
    const definition = pickResult(schema.resultsOf(call.method, call.isTaskAugmented), result);
    if (definition === undefined)
      return this.#finding(
        item,
        'schema-violation',
        `the result to ${call.method} has resultType ${JSON.stringify(result.resultType)}, which ${call.method} may not return in ${schema.revision}`,
        'S26-MRTR-1',
      );
    return this.#invalid(schema, item, definition, result, `result${to}`);
  }

  /** A schema-violation finding when `value` fails `definition`, else undefined. */
  #invalid(
    schema: RevisionSchema,
    item: SchemaItem,
    definition: string,
    value: unknown,
    what: string,
  ): Finding | undefined {
    const found = schema.validate(definition, value);
    if (found.length === 0) return undefined;
    const errors = found.filter((error) => !isReported(error, item.reportedMissing));
    if (errors.length === 0) return undefined;
    const who = item.from === 'server' ? "the server's" : "the client's";
    return this.#finding(
      item,
      'schema-violation',
      `${who} ${what} is not a valid ${definition} of ${schema.revision}: ${errors.join('; ')}; send what the official schema of the negotiated revision defines`,
    );
  }

  #finding(
    item: SchemaItem,
    rule: RuleId,
    message: string,
    requirement?: string,
    severity?: Severity,
  ): Finding {
    return createFinding(rule, message, {
      isStateless: item.isStateless,
      line: item.line,
      t: item.t,
      requirement,
      severity,
    });
  }
}

/** The one definition a result must match: by its `resultType`, by `task`, else the method's own result. */
function pickResult(candidates: readonly string[], result: JsonRecord): string | undefined {
  if (result.resultType === 'input_required')
    return candidates.find((name) => name === 'InputRequiredResult');
  if ('task' in result && candidates.includes('CreateTaskResult')) return 'CreateTaskResult';
  return (
    candidates.find((name) => name !== 'InputRequiredResult' && name !== 'CreateTaskResult') ?? candidates[0]
  );
}

/** True for a "must have required property 'x'" error another rule already reported. */
function isReported(error: string, reported: readonly string[]): boolean {
  const match = /must have required property '([^']+)'$/.exec(error);
  return match !== null && reported.includes(match[1]!);
}
