// What every JSON Schema validator here checks before compiling, and how it caches: the dialects
// (SCHEMA-1, SCHEMA-2), schemas that can never be used, and one `Validate` per schema content.

import { isDeeperThan } from '../jsonrpc/json-depth.ts';
import { toCanonicalJson } from './canonical-json.ts';
import { formatErrorLine } from './error-line.ts';
import type { JsonSchema, SyncJsonSchemaValidator, ValidateResult } from './json-schema-validator.ts';
import { LruCache } from './lru-cache.ts';

/** A synchronous check of one value. */
export type SyncValidate = (value: unknown) => ValidateResult;

export const DIALECT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
export const DIALECT_DRAFT_07 = 'http://json-schema.org/draft-07/schema';

/** A dialect the validators understand. */
export type Dialect = typeof DIALECT_2020_12 | typeof DIALECT_DRAFT_07;

/**
 * The `$schema` URIs the validators understand (SCHEMA-2), compared with any trailing `#` removed.
 * A schema without `$schema` is 2020-12 (SCHEMA-1).
 */
export const supportedDialects: readonly string[] = [DIALECT_2020_12, `${DIALECT_DRAFT_07}#`];

/** The one answer for every valid value; frozen, so it can be shared. */
export const VALID: ValidateResult = Object.freeze({ valid: true });

/**
 * The dialect `schema` is written in, or a `Validate` that always fails saying why the schema cannot be
 * used: not an object or boolean, an unsupported `$schema`, or `$async`. Both validators word these alike.
 */
export function dialectOf(schema: JsonSchema): Dialect | SyncValidate {
  if (typeof schema === 'boolean') return DIALECT_2020_12;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return alwaysFail(`invalid JSON Schema: expected an object or a boolean, received ${describe(schema)}`);
  }
  const dialect = dialectOfUri(schema.$schema);
  if (dialect === undefined) {
    return alwaysFail(
      `unsupported JSON Schema dialect ${JSON.stringify(schema.$schema)}: ` +
        `supported are ${supportedDialects.join(' and ')} (the default when $schema is absent)`,
    );
  }
  if (schema.$async === true) return alwaysFail('invalid JSON Schema: $async schemas are not supported');
  return dialect;
}

function dialectOfUri(uri: unknown): Dialect | undefined {
  if (uri === undefined) return DIALECT_2020_12;
  if (typeof uri !== 'string') return undefined;
  const bare = uri.endsWith('#') ? uri.slice(0, -1) : uri;
  return bare === DIALECT_2020_12 || bare === DIALECT_DRAFT_07 ? bare : undefined;
}

/**
 * The deepest nesting of objects and arrays a schema may have (the schema itself is level 1): the
 * validators compile and dereference recursively, and a schema may come from a peer (a server's
 * `outputSchema`, issue 21). Ajv runs out of stack near 1,100 levels; real schemas stay far below 256.
 */
export const MAX_SCHEMA_DEPTH = 256;

/** The one failure for a value the validator ran out of stack on (it recursed as deep as the value). */
export const TOO_DEEP_TO_VALIDATE = alwaysFail(
  'nested too deeply to validate (the schema recurses as deep as the value, and the value is deeper than the validator can follow)',
);

/** The failure for a `$ref` that points outside the schema: nothing is ever fetched (S26-SCHEMA-2). */
export function unresolvedRefFailure(ref: string): SyncValidate {
  return alwaysFail(
    `invalid JSON Schema: $ref ${JSON.stringify(ref)} does not resolve inside the schema; ` +
      'references outside the schema are never fetched',
  );
}

/** A `Validate` that rejects every value with one `(root)` line. */
export function alwaysFail(message: string): SyncValidate {
  const line = formatErrorLine('', message);
  return () => ({ valid: false, errors: [line] });
}

/**
 * A validator over `compileNow`: `compile` is cheap, and the real compilation runs on the first call of
 * the returned `Validate`, once. The same schema object, or any schema with the same content, gets the
 * same `Validate` while cached (`cacheSize` entries by content, least recently used dropped first).
 */
export function createCachingValidator(
  compileNow: (schema: JsonSchema) => SyncValidate,
  cacheSize: number,
): SyncJsonSchemaValidator {
  const byIdentity = new WeakMap<object, SyncValidate>();
  const byContent = new LruCache<string, SyncValidate>(cacheSize);
  return {
    compile(schema) {
      const isObject = typeof schema === 'object' && schema !== null;
      const known = isObject ? byIdentity.get(schema) : undefined;
      if (known !== undefined) return known;
      const key = contentKey(schema);
      let validate = key === undefined ? undefined : byContent.get(key);
      if (validate === undefined) {
        validate = lazily(() => compileBounded(schema, compileNow));
        if (key !== undefined) byContent.set(key, validate);
      }
      if (isObject) byIdentity.set(schema, validate);
      return validate;
    },
  };
}

/**
 * `compileNow(schema)`, or a failure naming MAX_SCHEMA_DEPTH for a schema nested deeper; the returned
 * check answers a RangeError of the validator (a value nested deeper than the stack, under a recursive
 * schema) with TOO_DEEP_TO_VALIDATE rather than throwing it.
 */
function compileBounded(schema: JsonSchema, compileNow: (schema: JsonSchema) => SyncValidate): SyncValidate {
  if (isDeeperThan(schema, MAX_SCHEMA_DEPTH))
    return alwaysFail(`invalid JSON Schema: nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  const validate = compileNow(schema);
  return (value) => {
    try {
      return validate(value);
    } catch (error) {
      if (error instanceof RangeError) return TOO_DEEP_TO_VALIDATE(value);
      throw error;
    }
  };
}

function lazily(compile: () => SyncValidate): SyncValidate {
  let compiled: SyncValidate | undefined;
  return (value) => (compiled ??= compile())(value);
}

function contentKey(schema: unknown): string | undefined {
  try {
    return toCanonicalJson(schema);
  } catch {
    return undefined; // cyclic or BigInt: not JSON, so cache by identity only and let compilation report it
  }
}

/** Names a non-schema for a message: `null`, `an array`, or its `typeof`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

/** Cuts a JSON rendering of allowed values to `max` characters for an error line. */
export function truncate(text: string | undefined, max = 200): string {
  if (text === undefined) return '';
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}
