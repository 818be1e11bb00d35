// The JsonSchemaValidator on @cfworker/json-schema: an interpreter, no code generation, so it runs where
// `eval` and `new Function` are forbidden (Cloudflare Workers, strict CSP). Same dialects, same caching and
// the same error lines as the Ajv validator.

import { Validator, type Schema } from '@cfworker/json-schema';
import { toAjvLines } from './cfworker-messages.ts';
import { formatErrorLine } from './error-line.ts';
import type { JsonSchema, SyncJsonSchemaValidator } from './json-schema-validator.ts';
import {
  alwaysFail,
  createCachingValidator,
  dialectOf,
  DIALECT_DRAFT_07,
  TOO_DEEP_TO_VALIDATE,
  unresolvedRefFailure,
  VALID,
  type SyncValidate,
} from './schema-dialect.ts';

/** Options for {@link createCfWorkerValidator}. */
export interface CfWorkerValidatorOptions {
  /** Validators kept by schema content, least recently used dropped first. Default 500. */
  readonly cacheSize?: number;
}

/**
 * Creates a validator backed by @cfworker/json-schema, for runtimes without code generation. Validation
 * is synchronous; each schema is prepared on the first call of its `Validate`, once, and cached by
 * identity and content. Messages match the Ajv validator's for the same failures (`/a: must be number`).
 * Differences from Ajv: a `$ref` that does not resolve is reported when validation reaches it, and a
 * schema invalid under its dialect is not diagnosed (its keywords are applied as written).
 */
export function createCfWorkerValidator(options: CfWorkerValidatorOptions = {}): SyncJsonSchemaValidator {
  return createCachingValidator(compileNow, options.cacheSize ?? 500);
}

function compileNow(schema: JsonSchema): SyncValidate {
  const dialect = dialectOf(schema);
  if (typeof dialect === 'function') return dialect;
  // No short-circuit: every failure is reported, as Ajv's `allErrors` does.
  let validator: Validator;
  try {
    validator = new Validator(
      schema as Schema | boolean,
      dialect === DIALECT_DRAFT_07 ? '7' : '2020-12',
      false,
    );
  } catch (error) {
    // cfworker dereferences eagerly: a key that is not well-formed UTF-16 (a lone surrogate) makes its
    // encodeURI throw a URIError here, which `Validate` must not pass on (it never throws).
    return failureOf(error);
  }
  return (value) => {
    let outcome: ReturnType<Validator['validate']>;
    try {
      outcome = validator.validate(value);
    } catch (error) {
      return failureOf(error)(value);
    }
    if (outcome.valid) return VALID;
    const lines = toAjvLines(outcome.errors, schema, value);
    return { valid: false, errors: lines.length > 0 ? lines : [formatErrorLine('', 'is invalid')] };
  };
}

/** What cfworker threw while validating (an unresolved `$ref`, or a RangeError on a deep value), as a failure. */
function failureOf(error: unknown): SyncValidate {
  // Stack exhaustion on a deep value under a recursive schema: the value's fault, not the schema's.
  if (error instanceof RangeError) return TOO_DEEP_TO_VALIDATE;
  const reason = error instanceof Error ? error.message : String(error);
  const ref = /^Unresolved \$ref "(.*?)"/.exec(reason)?.[1];
  return ref === undefined ? alwaysFail(`invalid JSON Schema: ${reason}`) : unresolvedRefFailure(ref);
}
