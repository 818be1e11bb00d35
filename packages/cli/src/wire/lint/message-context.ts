// What every message rule is handed: the entry, the message read as JSON, who sent it, the
// request a response answers, the connection state before this message, and where to report.

import type { MessageEntry, Side } from '../transcript.ts';
import type { LintState, RequestRecord } from './lint-state.ts';
import type { JsonRecord, MessageKind } from './message-facts.ts';
import type { Reporter } from './reporter.ts';

/** One message as the rules see it. */
export interface MessageContext {
  readonly entry: MessageEntry;
  readonly message: JsonRecord;
  readonly kind: MessageKind;
  readonly from: Side;
  /** The method of a request or notification. */
  readonly method: string | undefined;
  /** The state before this message (the linter updates it after every rule has run). */
  readonly state: LintState;
  readonly report: Reporter;
  /** For a response: the request of the other side with its id, if there is one. */
  readonly request: RequestRecord | undefined;
  /** True when the message belongs to 2026-07-28 (its envelope, its request's, or the era's). */
  readonly isModern: boolean;
  /** Set by a rule whose finding would make the schema rule report the same fault again. */
  isSchemaSkipped: boolean;
  /** Required properties a rule already reported missing: the schema rule does not repeat them. */
  readonly reportedMissing: string[];
}
