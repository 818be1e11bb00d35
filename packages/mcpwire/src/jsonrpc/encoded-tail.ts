// A result's last property whose JSON text is known in advance (a server's fixed `_meta`, say): the
// encoder splices that text in instead of serialising the same value on every answer (issue 23).

/** The symbol key a result carries its {@link EncodedTail} under; JSON.stringify skips symbol keys. */
export const encodedTail: unique symbol = Symbol('encodedTail');

/** A frozen value, the key it sits under, and the JSON text of that property (`"key":value`). */
export interface EncodedTail {
  readonly key: string;
  readonly value: object;
  readonly text: string;
}

/**
 * The tail for a JSON copy of `value` under `key`, taken now: the copy is frozen deeply, so its
 * text cannot go stale (later changes to `value` do not show in it).
 */
export function createEncodedTail(key: string, value: object): EncodedTail {
  const json = JSON.stringify(value);
  const copy = deepFreeze(JSON.parse(json) as object);
  return Object.freeze({ key, value: copy, text: `${JSON.stringify(key)}:${json}` });
}

/**
 * The JSON text of `message` when it is a response (`result` its last key, as every response this
 * library builds has it) whose result carries a tail still holding its value; otherwise undefined
 * and the caller serialises as usual. Whoever attaches a tail must make its key the result's last
 * property and add none after it: the spliced text puts it last.
 */
export function encodeWithTail(message: object): string | undefined {
  const result = (message as { result?: unknown }).result;
  if (typeof result !== 'object' || result === null) return undefined;
  const tail = (result as { [encodedTail]?: EncodedTail })[encodedTail];
  if (tail === undefined) return undefined;
  const record = result as Record<string, unknown>;
  if (record[tail.key] !== tail.value || Object.isFrozen(record)) return undefined;
  // Undefined-valued properties are left out by JSON.stringify: the rest is serialised as usual,
  // with the result's closing brace and the response's at the end.
  record[tail.key] = undefined;
  let text: string;
  try {
    text = JSON.stringify(message);
  } finally {
    record[tail.key] = tail.value;
  }
  // Anything but `}}` at the end means `result` was not the response's last key: no splice.
  const end = text.length - 2;
  if (text.charCodeAt(end) !== CLOSE || text.charCodeAt(end + 1) !== CLOSE) return undefined;
  const separator = text.charCodeAt(end - 1) === OPEN ? '' : ',';
  return `${text.slice(0, end)}${separator}${tail.text}}}`;
}

const OPEN = 0x7b;
const CLOSE = 0x7d;

function deepFreeze(value: object): object {
  for (const inner of Object.values(value))
    if (typeof inner === 'object' && inner !== null) deepFreeze(inner as object);
  return Object.freeze(value);
}
