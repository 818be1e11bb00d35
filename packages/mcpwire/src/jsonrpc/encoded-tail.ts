// A result's last property whose JSON text is known in advance (a server's fixed `_meta`, say): the
// encoder splices that text in instead of serialising the same value on every answer (issue 23).

/** The symbol key a result carries its {@link EncodedTail} under; JSON.stringify skips symbol keys. */
export const encodedTail: unique symbol = Symbol('encodedTail');

/** A frozen value, the key it sits under, and the JSON text of that property (`"key":value`). */
export interface EncodedTail {
  readonly key: string;
  readonly value: object;
  readonly text: string;
  /** What closes a response after its result's other properties: `,` + `text` + `}}`. */
  readonly closing: string;
  /** The same after a result with no other property: `text` + `}}`. */
  readonly closingAlone: string;
}

/**
 * The tail for a JSON copy of `value` under `key`, taken now: the copy is frozen deeply, so its
 * text cannot go stale (later changes to `value` do not show in it).
 */
export function createEncodedTail(key: string, value: object): EncodedTail {
  const json = JSON.stringify(value);
  const copy = deepFreeze(JSON.parse(json) as object);
  const text = `${JSON.stringify(key)}:${json}`;
  return Object.freeze({ key, value: copy, text, closing: `,${text}}}`, closingAlone: `${text}}}` });
}

/**
 * The JSON text of `message` when it is a response of exactly `jsonrpc`, `id` and `result`, in that
 * order, whose result carries a tail still holding its value; otherwise undefined and the caller
 * serialises as usual. The encoder writes that envelope itself around the result's text, so nothing
 * outside the result is searched. Whoever attaches a tail must make its key the result's last
 * property: the spliced text puts it last.
 */
export function encodeWithTail(message: object): string | undefined {
  const result = (message as { result?: unknown }).result;
  if (typeof result !== 'object' || result === null) return undefined;
  const tail = (result as { [encodedTail]?: EncodedTail })[encodedTail];
  if (tail === undefined) return undefined;
  const record = result as Record<string, unknown>;
  if (record[tail.key] !== tail.value) return undefined;
  const id = envelopeId(message);
  if (id === undefined) return undefined;
  // Undefined-valued properties are left out by JSON.stringify: the rest is serialised as usual,
  // with the result's closing brace at the end. A frozen result (or a read-only property) cannot
  // lend it: the assignment throws (modules are strict), which costs less to catch than a call to
  // `Object.isFrozen` per answer costs to make.
  try {
    record[tail.key] = undefined;
  } catch {
    return undefined;
  }
  let text: string;
  try {
    text = JSON.stringify(record);
  } finally {
    record[tail.key] = tail.value;
  }
  const end = text.length - 1;
  // The closing text is made once per tail: fewer string concatenations per response.
  const closing = text.charCodeAt(end - 1) === OPEN ? tail.closingAlone : tail.closing;
  return `{"jsonrpc":"2.0","id":${id},"result":${text.slice(0, end)}${closing}`;
}

const ENVELOPE_KEYS = ['jsonrpc', 'id', 'result'];

/** The id's JSON text when `message`'s keys are exactly the response envelope's, in its order. */
function envelopeId(message: object): string | undefined {
  let index = 0;
  // for-in walks own keys in JSON.stringify's order (a message is a plain object), without an array.
  for (const key in message) if (key !== ENVELOPE_KEYS[index++]) return undefined;
  if (index !== ENVELOPE_KEYS.length) return undefined;
  const { jsonrpc, id } = message as { jsonrpc?: unknown; id?: unknown };
  if (jsonrpc !== '2.0') return undefined;
  // A number's JSON text is its string form (`null` when not finite), without a call of
  // JSON.stringify, which cost more than the rest of the envelope (issue 23).
  if (typeof id === 'number') return Number.isFinite(id) ? String(id) : 'null';
  return typeof id === 'string' ? JSON.stringify(id) : undefined;
}

const OPEN = 0x7b;

function deepFreeze(value: object): object {
  for (const inner of Object.values(value))
    if (typeof inner === 'object' && inner !== null) deepFreeze(inner as object);
  return Object.freeze(value);
}
