// Checks messages on the wire against the official JSON Schema of a protocol revision
// (spec/<revision>/schema.json, test data only), each against its specific definition.

import { AssertionError } from 'node:assert';

import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

import type { Frame } from 'mcpwire';
import type { ChannelObserver } from 'mcpwire';
import { loadRevisionSchema, type RevisionSchema } from './wire-schema-load.ts';

export { loadSchemaDefinitions } from './wire-schema-load.ts';

/** Which way a message went, seen from the side under test. */
export type Direction = 'sent' | 'received';

/** The side under test: its sent messages must be this side's messages, its received ones the peer's. */
export type Side = 'client' | 'server';

/** The outcome of validating one value. */
export interface ValidationOutcome {
  valid: boolean;
  errors: string[];
}

/** Options of `createWireValidator`. */
export interface WireValidatorOptions {
  /** The revision to validate against, or a function returning it once known (e.g. after `initialize`). */
  revision: string | (() => string | undefined);
  side: Side;
  /** Validate requests and notifications of methods no revision defines against the bare envelope only. */
  allowUnknownMethods?: boolean;
}

/** Records schema failures of the messages it is shown; never throws while checking. */
export interface WireValidator {
  /** One line per failure: what, which method and definition, the message (truncated) and the schema errors. */
  readonly failures: string[];
  /** Checks one message or batch (any JSON value) that went `direction`. Messages wait until the revision is known. */
  check(message: unknown, direction: Direction): void;
  /** Checks a received frame; an invalid frame is a failure in itself. */
  checkFrame(frame: Frame): void;
  /** For `tapChannel(channel, validator.observer)`. */
  readonly observer: ChannelObserver;
  /** Throws an AssertionError listing every failure (and any messages still waiting for a revision). */
  assertClean(): void;
}

/** Validates `value` against definition `definitionName` of `revision`'s schema. Throws if either does not exist. */
export function validateAgainstDefinition(
  revision: string,
  definitionName: string,
  value: unknown,
): ValidationOutcome {
  const schema = loadRevisionSchema(revision);
  if (!(definitionName in schema.definitions))
    throw new Error(`Revision ${revision} has no definition "${definitionName}"`);
  return validate(schema, definitionName, value);
}

/** Creates a validator that checks each message against the definition its method (or request) calls for. */
export function createWireValidator(options: WireValidatorOptions): WireValidator {
  return new SchemaWireValidator(options);
}

type Calls = Map<string, { method: string; params: unknown }>;

class SchemaWireValidator implements WireValidator {
  readonly failures: string[] = [];
  readonly observer: ChannelObserver;
  readonly #options: WireValidatorOptions;
  readonly #waiting: Array<{ message: unknown; direction: Direction }> = [];
  /** Requests awaiting a response, by the direction they went. */
  readonly #outstanding: Record<Direction, Calls> = { sent: new Map(), received: new Map() };

  constructor(options: WireValidatorOptions) {
    this.#options = options;
    this.observer = {
      onSend: (message) => this.check(message, 'sent'),
      onReceive: (frame) => this.checkFrame(frame),
    };
  }

  check(message: unknown, direction: Direction): void {
    this.#waiting.push({ message, direction });
    this.#drain();
  }

  checkFrame(frame: Frame): void {
    if (frame.type === 'message') return this.check(frame.message, 'received');
    if (frame.type === 'invalid') {
      this.failures.push(`received a frame that is not a JSON-RPC message: ${frame.response.error.message}`);
      return;
    }
    const messages = [];
    for (const item of frame.items) {
      if (item.type === 'message') messages.push(item.message);
      else
        this.failures.push(
          `received a batch item that is not a JSON-RPC message: ${item.response.error.message}`,
        );
    }
    if (messages.length > 0) this.check(messages, 'received');
  }

  assertClean(): void {
    this.#drain();
    if (this.#waiting.length > 0) {
      this.failures.push(
        `the revision never became known; ${this.#waiting.length} message(s) were not checked`,
      );
      this.#waiting.length = 0;
    }
    if (this.failures.length === 0) return;
    const list = this.failures.map((failure) => `- ${failure}`).join('\n');
    throw new AssertionError({ message: `${this.failures.length} wire failure(s):\n${list}` });
  }

  #drain(): void {
    const { revision } = this.#options;
    let current: string | undefined;
    try {
      current = typeof revision === 'string' ? revision : revision();
    } catch (error) {
      this.failures.push(`could not read the revision to check against: ${String(error)}`);
      return;
    }
    if (current === undefined) return;
    for (const { message, direction } of this.#waiting.splice(0)) {
      try {
        this.#checkNow(loadRevisionSchema(current), message, direction);
      } catch (error) {
        // A broken validator must show up as a failure, not as an exception inside a transport callback.
        this.failures.push(`could not check a ${direction} message against ${current}: ${String(error)}`);
      }
    }
  }

  #checkNow(schema: RevisionSchema, message: unknown, direction: Direction): void {
    if (Array.isArray(message)) return this.#checkBatch(schema, message, direction);
    if (typeof message !== 'object' || message === null)
      return this.#fail(direction, 'a non-object message', message, []);
    const record = message as Record<string, unknown>;
    if ('method' in record) return this.#checkCall(schema, record, direction);
    if ('error' in record) return this.#checkError(schema, record, direction);
    this.#checkResult(schema, record, direction);
  }

  #checkBatch(schema: RevisionSchema, items: unknown[], direction: Direction): void {
    const { batch } = schema.envelope;
    if (batch === undefined)
      return this.#fail(direction, `a JSON-RPC batch, which ${schema.revision} does not allow`, items, []);
    const calls = items.filter((item) => isObject(item) && 'method' in item);
    if (calls.length !== 0 && calls.length !== items.length) {
      return this.#fail(direction, 'a batch mixing requests and responses', items, []);
    }
    if (calls.some((item) => (item as Record<string, unknown>).method === 'initialize')) {
      this.#fail(direction, 'a batch containing initialize, which must not be batched', items, []);
    }
    this.#expect(schema, calls.length > 0 ? batch.calls : batch.responses, items, direction, 'batch');
    for (const item of items) this.#checkNow(schema, item, direction);
  }

  #checkCall(schema: RevisionSchema, message: Record<string, unknown>, direction: Direction): void {
    const method = String(message.method);
    const isRequest = 'id' in message;
    const kind = isRequest ? 'request' : 'notification';
    const sender = direction === 'sent' ? this.#options.side : other(this.#options.side);
    const definition = (isRequest ? schema.requests : schema.notifications).get(method);
    const allowed = (isRequest ? schema.senders[sender].requests : schema.senders[sender].notifications).has(
      method,
    );
    if (isRequest) this.#outstanding[direction].set(idKey(message.id), { method, params: message.params });
    const envelope = isRequest ? schema.envelope.request : schema.envelope.notification;
    if (!allowed && !(definition === undefined && this.#options.allowUnknownMethods === true)) {
      const why = definition === undefined ? 'no such method' : `only the ${other(sender)} sends it`;
      this.#fail(
        direction,
        `${kind} "${method}", which a ${sender} may not send in ${schema.revision} (${why})`,
        message,
        [],
      );
    }
    this.#expect(schema, envelope, message, direction, `${kind} "${method}"`);
    if (definition !== undefined) this.#expect(schema, definition, message, direction, `${kind} "${method}"`);
  }

  #checkResult(schema: RevisionSchema, message: Record<string, unknown>, direction: Direction): void {
    this.#expect(schema, schema.envelope.result, message, direction, 'result');
    const call = this.#takeCall(message.id, direction);
    if (call === undefined) {
      return this.#fail(
        direction,
        `result for id ${JSON.stringify(message.id)}, which matches no request`,
        message,
        [],
      );
    }
    const result = isObject(message.result) ? message.result : {};
    // A stateless-era task (S26-TASK-5) is the tasks extension's shape, which the core schema lacks:
    // its own tests check it (packages/mcpwire/src/extensions/tasks).
    if (result.resultType === 'task' && !('CreateTaskResult' in schema.definitions)) return;
    const candidates = schema.resultsOf(call.method, isObject(call.params) && 'task' in call.params);
    const definition = pickResult(candidates, result);
    const what = `result of "${call.method}" (id ${JSON.stringify(message.id)})`;
    if (definition === undefined) {
      return this.#fail(
        direction,
        `${what} with resultType ${JSON.stringify(result.resultType)}, which it may not return`,
        message,
        [],
      );
    }
    this.#expect(schema, definition, result, direction, what);
  }

  #checkError(schema: RevisionSchema, message: Record<string, unknown>, direction: Direction): void {
    // An unmatched error is not flagged: it may answer a frame that was itself invalid (and failed already).
    const call = 'id' in message ? this.#takeCall(message.id, direction) : undefined;
    const what = call === undefined ? 'error response' : `error response to "${call.method}"`;
    this.#expect(schema, schema.envelope.error, message, direction, what);
    const code = isObject(message.error) ? message.error.code : undefined;
    const specific = typeof code === 'number' ? schema.errorsByCode.get(code) : undefined;
    if (specific !== undefined) this.#expect(schema, specific, message, direction, what);
  }

  #takeCall(id: unknown, direction: Direction): { method: string; params: unknown } | undefined {
    const calls = this.#outstanding[direction === 'sent' ? 'received' : 'sent'];
    const call = calls.get(idKey(id));
    calls.delete(idKey(id));
    return call;
  }

  #expect(
    schema: RevisionSchema,
    definition: string,
    value: unknown,
    direction: Direction,
    what: string,
  ): void {
    const outcome = validate(schema, definition, value);
    if (!outcome.valid)
      this.#fail(
        direction,
        `${what} is not a valid ${definition} in ${schema.revision}`,
        value,
        outcome.errors,
      );
  }

  #fail(direction: Direction, what: string, value: unknown, errors: string[]): void {
    const detail = errors.length === 0 ? '' : ` -- ${errors.join('; ')}`;
    this.failures.push(`${direction} ${what}: ${truncate(JSON.stringify(value) ?? String(value))}${detail}`);
  }
}

/** The one definition a result must match: by its `resultType`, by `task`, else the method's own result. */
function pickResult(candidates: readonly string[], result: Record<string, unknown>): string | undefined {
  if (result.resultType === 'input_required')
    return candidates.find((name) => name === 'InputRequiredResult');
  if ('task' in result && candidates.includes('CreateTaskResult')) return 'CreateTaskResult';
  return (
    candidates.find((name) => name !== 'InputRequiredResult' && name !== 'CreateTaskResult') ?? candidates[0]
  );
}

const validators = new Map<string, ValidateFunction>();
const engines = new Map<string, Ajv | Ajv2020>();

function validate(schema: RevisionSchema, definition: string, value: unknown): ValidationOutcome {
  const key = `${schema.revision}#${definition}`;
  let check = validators.get(key);
  if (check === undefined) {
    const found = engineFor(schema).getSchema(`${schema.id}#/${schema.definitionsKey}/${definition}`);
    if (found === undefined) throw new Error(`Revision ${schema.revision} has no definition "${definition}"`);
    check = found;
    validators.set(key, check);
  }
  if (check(value)) return { valid: true, errors: [] };
  const errors = (check.errors ?? [])
    .slice(0, 8)
    .map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`);
  return { valid: false, errors };
}

/** One ajv per revision, holding that revision's whole (patched) schema; definitions compile lazily, once. */
function engineFor(schema: RevisionSchema): Ajv | Ajv2020 {
  let engine = engines.get(schema.revision);
  if (engine === undefined) {
    const options = { strict: false, allErrors: true };
    engine = schema.definitionsKey === '$defs' ? new Ajv2020(options) : new Ajv(options);
    ajvFormats.default(engine);
    engine.addSchema(schema.document);
    engines.set(schema.revision, engine);
  }
  return engine;
}

function other(side: Side): Side {
  return side === 'client' ? 'server' : 'client';
}

function idKey(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function truncate(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}
