// The call/* rules: what one sample call (`check --call`) answered, against the tool's definition:
// an outputSchema the result ignores or breaks (TOOL-3), structuredContent without a schema or
// without the text block older clients read (TOOL-4), a failed call (TOOL-7).

import { createAjvValidator } from 'mcpwire/validators/ajv';
import { capDepth } from '../../wire/json-depth.ts';
import { toCanonicalJson } from '../canonical-json.ts';
import type { CheckFinding } from '../check-finding.ts';
import type { Definition } from '../definition.ts';
import { findingOf } from '../report.ts';
import { isObject, schemaNodes } from '../schema-walk.ts';

/** How one sample call ended: the result as the server sent it, or its JSON-RPC error. */
export type SampleCallOutcome = { result: unknown } | { error: { code: number; message: string } };

/** The longest stretch of the server's error text a finding quotes. */
const MAX_QUOTE = 300;

/** What the validator says of a schema it cannot use (spec/schema-invalid reports those). */
const UNUSABLE = /^\(root\): (invalid JSON Schema|unsupported JSON Schema dialect)/;

/** The call/* findings of `outcome`, a call of `tool`. A failed call is reported and not checked further. */
export function checkCallResult(tool: Definition, outcome: SampleCallOutcome): CheckFinding[] {
  if ('error' in outcome)
    return [
      findingOf('call/rpc-error', tool, {
        message: `the sample call was answered with JSON-RPC error ${outcome.error.code}: ${quote(outcome.error.message)}`,
        fix: 'if the arguments given to --call are valid, the call should succeed; a failure of the tool itself (bad input values, a failing API) belongs in a result with isError: true, which the model sees, not in a JSON-RPC error (TOOL-7)',
      }),
    ];
  const result = capDepth(outcome.result);
  if (!isObject(result)) return [];
  if (result.isError === true)
    return [
      findingOf('call/tool-error', tool, {
        message: `the sample call failed (isError: true), so its result was not checked: ${quote(textOf(result.content))}`,
        fix: 'give --call arguments the tool accepts, so that its result can be checked',
      }),
    ];
  return [...checkStructured(tool, result), ...checkMirrored(tool, result)];
}

function checkStructured(tool: Definition, result: Record<string, unknown>): CheckFinding[] {
  const schema = tool.value.outputSchema;
  const structured = result.structuredContent;
  if (schema === undefined)
    return structured === undefined
      ? []
      : [
          findingOf('call/structured-without-schema', tool, {
            message:
              'the result has structuredContent but the tool declares no outputSchema: a client cannot validate it, nor a host know its shape before the call',
            fix: 'declare an outputSchema that describes structuredContent',
          }),
        ];
  if (structured === undefined)
    return [
      findingOf('call/structured-missing', tool, {
        message:
          'the tool declares an outputSchema but the result has no structuredContent: the spec requires it (TOOL-3), and a client that validates results rejects this one',
        fix: 'return structuredContent that conforms to the outputSchema (or drop the outputSchema)',
      }),
    ];
  // A schema the schema rules already report (not an object, too deep, not compiling) is not used.
  if (!isObject(schema) || schemaNodes(schema).isTooDeep) return [];
  const outcome = createAjvValidator({ cacheSize: 1 }).compile(schema)(structured);
  if (outcome.valid || outcome.errors.some((line) => UNUSABLE.test(line))) return [];
  return [
    findingOf('call/structured-invalid', tool, {
      message: `structuredContent does not match the outputSchema: ${outcome.errors.slice(0, 5).join('; ')}`,
      fix: 'return structuredContent that conforms to the outputSchema, or correct the schema to say what the tool returns',
    }),
  ];
}

function checkMirrored(tool: Definition, result: Record<string, unknown>): CheckFinding[] {
  const structured = result.structuredContent;
  if (structured === undefined) return [];
  const expected = toCanonicalJson(structured);
  const blocks = Array.isArray(result.content) ? result.content : [];
  const texts = blocks
    .filter((block) => isObject(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => (block as { text: string }).text);
  if (texts.some((text) => sameJson(text, expected) || isWrapperOf(structured, text))) return [];
  return [
    findingOf('call/structured-not-mirrored', tool, {
      message:
        'no text content block holds structuredContent serialized as JSON: a client that reads only content (one older than 2025-06-18, or one ignoring structuredContent) does not get that data',
      fix: 'also return the structuredContent as JSON text: {"type": "text", "text": JSON.stringify(structuredContent)} (TOOL-4)',
    }),
  ];
}

/**
 * True when `structured` is an object whose one property is `text`: the text-only shape
 * ({content: T} beside a text block T, as @modelcontextprotocol/server-filesystem answers). A client
 * reading only content gets all of it, which is what TOOL-4's mirroring is for.
 */
function isWrapperOf(structured: unknown, text: string): boolean {
  if (!isObject(structured)) return false;
  const values = Object.values(structured);
  return values.length === 1 && values[0] === text;
}

function sameJson(text: unknown, expected: string): boolean {
  if (typeof text !== 'string') return false;
  try {
    return toCanonicalJson(JSON.parse(text)) === expected;
  } catch {
    return false;
  }
}

/** The text blocks of `content`, joined: what the server said of its failure. */
function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '(no content)';
  const texts = content
    .filter((block) => isObject(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => (block as { text: string }).text);
  return texts.length === 0 ? '(no text content)' : texts.join(' ');
}

/** `text` cut to MAX_QUOTE characters (the outputs escape it for the terminal). */
function quote(text: string): string {
  return text.length <= MAX_QUOTE ? text : `${text.slice(0, MAX_QUOTE)}... (${text.length} characters)`;
}
