// Asking a person for the properties of a JSON Schema object on the terminal (@clack/prompts): a
// tool's input schema before a call, an elicitation's requestedSchema. Each field gets the prompt
// its type calls for; optional fields may be left empty.

import { confirm, isCancel, multiselect, select, text } from '@clack/prompts';
import { choicesOf, typeOf, type FieldSchema } from '../../terminal/schema-shape.ts';
import { toTerminalText } from '../../terminal/terminal-text.ts';
import { checkNumber, checkString } from './field-checks.ts';
import { toCappedJson } from '../../wire/json-depth.ts';

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
  const choices = optionsOf(field);
  if (type === 'array' && field.items !== undefined && optionsOf(field.items).length > 0) {
    const picked = await multiselect({
      message,
      options: optionsOf(field.items),
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

/** The choices of a field as select options, labelled by their titles (escaped: they are the server's). */
function optionsOf(field: FieldSchema): Array<{ value: unknown; label: string }> {
  return choicesOf(field).map(({ value, title }) => ({
    value,
    label: toTerminalText(String(title ?? value)),
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
