// What every message rule is handed: the entry, the message read as JSON with the facts the rules
// share (read once), who sent it, the request a response answers, the connection state before this
// message, the HTTP POST that carried it, and where to report.

import type { HttpRequestEntry, MessageEntry, Side } from '../transcript.ts';
import type { LintState, RequestRecord } from './lint-state.ts';
import type { JsonRecord, MessageKind } from './message-facts.ts';
import type { Reporter } from './reporter.ts';

/** An HTTP POST whose header check waits for the first message of its body. */
export interface PostedRequest {
  readonly request: HttpRequestEntry;
  readonly line: number | undefined;
}

/** One message as the rules see it. */
export interface MessageContext {
  readonly entry: MessageEntry;
  readonly message: JsonRecord;
  readonly kind: MessageKind;
  readonly from: Side;
  /** The method of a request or notification. */
  readonly method: string | undefined;
  /** `params` when it is an object, and `params._meta` when that is one. */
  readonly params: JsonRecord | undefined;
  readonly meta: JsonRecord | undefined;
  /** True for a request whose `_meta` names a protocol version (a 2026-07-28 request). */
  readonly hasStatelessClaim: boolean;
  /** The state before this message (the linter updates it after every rule has run). */
  readonly state: LintState;
  readonly report: Reporter;
  /** For a response: the request of the other side with its id, if there is one. */
  readonly request: RequestRecord | undefined;
  /** True when the message belongs to 2026-07-28 (its envelope, its request's, or the era's). */
  readonly isStateless: boolean;
  /** Over HTTP, for the first client message of a POST: that POST, whose headers are checked now. */
  readonly posted: PostedRequest | undefined;
  /** Set by a rule whose finding would make the schema rule report the same fault again. */
  isSchemaSkipped: boolean;
  /** Required properties a rule already reported missing: the schema rule does not repeat them. */
  readonly reportedMissing: string[];
}
