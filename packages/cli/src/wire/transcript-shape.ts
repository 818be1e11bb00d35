// What each transcript entry type must hold, checked as a transcript is read: a file from anywhere
// (a colleague's bug report, a hostile recording) may carry an entry of a known type with missing or
// mistyped fields, which every reader after the parser would otherwise trust (issue 21).

type FieldCheck = (value: unknown) => boolean;

const isString: FieldCheck = (value) => typeof value === 'string';
const isNumber: FieldCheck = (value) => typeof value === 'number' && Number.isFinite(value);
const isSide: FieldCheck = (value) => value === 'client' || value === 'server';
const isObject: FieldCheck = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringRecord: FieldCheck = (value) =>
  isObject(value) && Object.values(value as object).every((item) => typeof item === 'string');
const isStringList: FieldCheck = (value) =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');
const orNull =
  (check: FieldCheck): FieldCheck =>
  (value) =>
    value === null || check(value);

interface Field {
  check: FieldCheck;
  /** What the field must be, for the message. */
  expected: string;
  isOptional?: boolean;
}

const SIDE: Field = { check: isSide, expected: '"client" or "server"' };
const TEXT: Field = { check: isString, expected: 'a string' };
const EXCHANGE: Field = { check: isNumber, expected: 'a number' };
const HEADERS: Field = { check: isStringRecord, expected: 'an object of strings' };
const optional = (field: Field): Field => ({ ...field, isOptional: true });

/** The fields of each entry type besides `type` and `t` (the parser checks those for every entry). */
const SHAPES: Record<string, Record<string, Field>> = {
  message: {
    from: SIDE,
    message: { check: isObject, expected: 'an object' },
    exchange: optional(EXCHANGE),
    eventId: optional(TEXT),
    batch: optional(EXCHANGE),
  },
  invalid: { from: SIDE, text: TEXT, reason: TEXT },
  spawn: { command: TEXT, args: { check: isStringList, expected: 'a list of strings' } },
  exit: {
    code: { check: orNull(isNumber), expected: 'a number or null' },
    signal: { check: orNull(isString), expected: 'a string or null' },
  },
  stderr: { text: TEXT },
  'http-request': { exchange: EXCHANGE, method: TEXT, url: TEXT, headers: HEADERS, body: optional(TEXT) },
  'http-response': {
    exchange: EXCHANGE,
    status: { check: isNumber, expected: 'a number' },
    headers: HEADERS,
    body: optional(TEXT),
  },
  'http-end': { exchange: EXCHANGE, error: optional(TEXT) },
  note: { text: TEXT },
};

/**
 * Why `entry` (an object whose `type` is a known entry type) cannot be read as that type, naming the
 * first field that is missing or of the wrong kind; undefined when it can.
 */
export function entryShapeProblem(entry: Readonly<Record<string, unknown>>): string | undefined {
  const fields = SHAPES[String(entry.type)];
  if (fields === undefined) return undefined;
  for (const [name, field] of Object.entries(fields)) {
    const value = entry[name];
    if (value === undefined) {
      if (field.isOptional === true) continue;
      return `a ${String(entry.type)} entry without "${name}" (${field.expected})`;
    }
    if (!field.check(value))
      return `a ${String(entry.type)} entry whose "${name}" is not ${field.expected}: ${describe(value)}`;
  }
  return undefined;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}
