// Asking a person for the properties of a JSON Schema object on the terminal (@clack/prompts): a
// tool's input schema before a call, an elicitation's requestedSchema. Each field gets the prompt
// its type calls for; optional fields may be left empty.

import { confirm, isCancel, multiselect, select, text } from '@clack/prompts';
import { toTerminalText } from '../terminal-text.ts';
import { checkNumber, checkString, type CheckedField } from './field-checks.ts';
import { toCappedJson } from '../wire/json-depth.ts';

/** The part of a property schema the prompts read. */
interface FieldSchema extends CheckedField {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: Array<{ const?: unknown; title?: string }>;
  anyOf?: Array<{ const?: unknown; title?: string }>;
  items?: FieldSchema;
}

/** What the person chose when they cancelled (Ctrl-C or Escape) instead of answering. */
export const CANCELLED = Symbol('cancelled');

/**
 * Asks for each property of `schema` in order; resolves with the answers (left-out optional fields
 * are absent, values typed as the schema says) or {@link CANCELLED}.
 */
export async function promptForObject(schema: unknown): Promise<Record<string, unknown> | typeof CANCELLED> {
  const object = (typeof schema === 'object' && schema !== null ? schema : {}) as {
    properties?: Record<string, FieldSchema>;
    required?: string[];
  };
  const required = new Set(object.required ?? []);
  const answers: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(object.properties ?? {})) {
    const answer = await promptForField(name, field, required.has(name));
    if (answer === CANCELLED) return CANCELLED;
    if (answer !== undefined) answers[name] = answer;
  }
  return answers;
}

async function promptForField(name: string, field: FieldSchema, isRequired: boolean): Promise<unknown> {
  // The schema is the server's (a tool's inputSchema, an elicitation's requestedSchema).
  const message = toTerminalText(
    `${field.title ?? name}${isRequired ? '' : ' (optional)'}${field.description ? ` - ${field.description}` : ''}`,
  );
  const type = typeOf(field);
  const choices = choicesOf(field);
  if (type === 'array' && field.items !== undefined && choicesOf(field.items).length > 0) {
    const picked = await multiselect({
      message,
      options: choicesOf(field.items),
      required: isRequired,
      ...(Array.isArray(field.default) ? { initialValues: field.default as unknown[] } : {}),
    });
    return isCancel(picked) ? CANCELLED : picked;
  }
  if (choices.length > 0) {
    const options = isRequired ? choices : [...choices, { value: SKIP, label: '(leave out)' }];
    const picked = await select<unknown>({
      message,
      options,
      ...(field.default === undefined ? {} : { initialValue: field.default }),
    });
    return isCancel(picked) ? CANCELLED : picked === SKIP ? undefined : picked;
  }
  if (type === 'boolean') {
    const answer = await confirm({
      message,
      initialValue: field.default === undefined ? true : field.default === true,
    });
    return isCancel(answer) ? CANCELLED : answer;
  }
  const answer = await text({
    message,
    ...(field.default === undefined ? {} : { initialValue: toText(field.default) }),
    placeholder: placeholderOf(type, isRequired),
    validate: (value) => checkText(value ?? '', field, isRequired),
  });
  if (isCancel(answer)) return CANCELLED;
  return answer === '' || answer === undefined ? undefined : fromText(answer, type);
}

const SKIP = Symbol('skip');

function typeOf(field: FieldSchema): string {
  if (typeof field.type === 'string') return field.type;
  return Array.isArray(field.type) ? (field.type.find((type) => type !== 'null') ?? 'string') : 'string';
}

/** The values of an `enum` (titled by `enumNames`), or the `const`s of `oneOf`/`anyOf` (SEP-1330). */
function choicesOf(field: FieldSchema): Array<{ value: unknown; label: string }> {
  if (Array.isArray(field.enum))
    return field.enum.map((value, index) => ({
      value,
      label: toTerminalText(String(field.enumNames?.[index] ?? value)),
    }));
  const consts = (field.oneOf ?? field.anyOf ?? []).filter((item) => item.const !== undefined);
  return consts.map((item) => ({
    value: item.const,
    label: toTerminalText(String(item.title ?? item.const)),
  }));
}

function placeholderOf(type: string, isRequired: boolean): string {
  const what = type === 'object' || type === 'array' ? `JSON ${type}` : type;
  return isRequired ? what : `${what}, or empty to leave out`;
}

/** Why `value` cannot be the answer to `field` (shown, and the field asked again), or undefined. */
function checkText(value: string, field: FieldSchema, isRequired: boolean): string | undefined {
  if (value === '') return isRequired ? 'Required' : undefined;
  const type = typeOf(field);
  const typed = fromText(value, type);
  if (typed === INVALID)
    return `Expected ${type === 'object' || type === 'array' ? `a JSON ${type}` : `a ${type}`}`;
  // The field's own words go through toTerminalText; these reasons are ours, built from numbers.
  if (typeof typed === 'number') return checkNumber(typed, field);
  return typeof typed === 'string' ? checkString(typed, field) : undefined;
}

const INVALID = Symbol('invalid');

function fromText(value: string, type: string): unknown {
  switch (type) {
    case 'number':
      return Number.isFinite(Number(value)) && value.trim() !== '' ? Number(value) : INVALID;
    case 'integer':
      return /^-?\d+$/.test(value.trim()) ? Number(value) : INVALID;
    case 'object':
    case 'array':
      try {
        const parsed: unknown = JSON.parse(value);
        const isArray = Array.isArray(parsed);
        return (type === 'array' ? isArray : typeof parsed === 'object' && parsed !== null && !isArray)
          ? parsed
          : INVALID;
      } catch {
        return INVALID;
      }
    default:
      return value;
  }
}

function toText(value: unknown): string {
  return typeof value === 'string' ? value : toCappedJson(value);
}
