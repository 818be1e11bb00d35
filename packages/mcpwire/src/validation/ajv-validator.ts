// The default JsonSchemaValidator: Ajv for JSON Schema 2020-12 and draft-07, compiled lazily and cached.

import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, Options as AjvOptions, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { toCanonicalJson } from './canonical-json.ts';
import { formatErrorLine } from './error-line.ts';
import type { JsonSchema, SyncJsonSchemaValidator, ValidateResult } from './json-schema-validator.ts';

type Validate = (value: unknown) => ValidateResult;
import { LruCache } from './lru-cache.ts';

// ajv-formats is CommonJS: under NodeNext its default import is `module.exports`, which carries `.default`.
const addFormats = addFormatsModule.default;

const DIALECT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
const DIALECT_DRAFT_07 = 'http://json-schema.org/draft-07/schema';
type Dialect = typeof DIALECT_2020_12 | typeof DIALECT_DRAFT_07;

/**
 * The `$schema` URIs this validator understands (SCHEMA-2), compared with any trailing `#` removed.
 * A schema without `$schema` is 2020-12 (SCHEMA-1).
 */
export const supportedDialects: readonly string[] = [DIALECT_2020_12, `${DIALECT_DRAFT_07}#`];

// No `loadSchema`: a `$ref` Ajv cannot resolve inside the schema fails compilation instead of being fetched
// (S26-SCHEMA-2). `addUsedSchema: false` keeps a root `$id` out of the instance registry, so two schemas with
// the same `$id` never collide. `logger: false` keeps unknown-format warnings off the console.
const AJV_OPTIONS: AjvOptions = { strict: false, allErrors: true, addUsedSchema: false, logger: false };

/** Options for {@link createAjvValidator}. */
export interface AjvValidatorOptions {
  /** Validators kept by schema content, least recently used dropped first. Default 500. */
  readonly cacheSize?: number;
}

/**
 * Creates a validator backed by Ajv. `compile` is cheap: the Ajv compilation (milliseconds per schema) runs on
 * the first call of the returned `Validate`, once. The same schema object, or any schema with the same
 * content, gets the same `Validate` while cached. Nothing is ever fetched over the network.
 */
export function createAjvValidator(options: AjvValidatorOptions = {}): SyncJsonSchemaValidator {
  const cacheSize = options.cacheSize ?? 500;
  const compilers = {
    [DIALECT_2020_12]: new DialectCompiler(() => new Ajv2020(AJV_OPTIONS), cacheSize),
    [DIALECT_DRAFT_07]: new DialectCompiler(() => new Ajv(AJV_OPTIONS), cacheSize),
  };
  const byIdentity = new WeakMap<object, Validate>();
  const byContent = new LruCache<string, Validate>(cacheSize);

  return {
    compile(schema) {
      const isObject = typeof schema === 'object' && schema !== null;
      const known = isObject ? byIdentity.get(schema) : undefined;
      if (known !== undefined) return known;
      const key = contentKey(schema);
      let validate = key === undefined ? undefined : byContent.get(key);
      if (validate === undefined) {
        validate = lazily(() => compileNow(schema, compilers));
        if (key !== undefined) byContent.set(key, validate);
      }
      if (isObject) byIdentity.set(schema, validate);
      return validate;
    },
  };
}

function compileNow(schema: JsonSchema, compilers: Record<Dialect, DialectCompiler>): Validate {
  if (typeof schema === 'boolean') return fromAjv(compilers[DIALECT_2020_12].compile(schema));
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return alwaysFail(`invalid JSON Schema: expected an object or a boolean, received ${describe(schema)}`);
  }
  const dialect = dialectOf(schema.$schema);
  if (dialect === undefined) {
    return alwaysFail(
      `unsupported JSON Schema dialect ${JSON.stringify(schema.$schema)}: ` +
        `supported are ${supportedDialects.join(' and ')} (the default when $schema is absent)`,
    );
  }
  if (schema.$async === true) return alwaysFail('invalid JSON Schema: $async schemas are not supported');
  try {
    return fromAjv(compilers[dialect].compile(schema));
  } catch (error) {
    return alwaysFail(describeCompileError(error, dialect));
  }
}

function dialectOf(uri: unknown): Dialect | undefined {
  if (uri === undefined) return DIALECT_2020_12;
  if (typeof uri !== 'string') return undefined;
  const bare = uri.endsWith('#') ? uri.slice(0, -1) : uri;
  return bare === DIALECT_2020_12 || bare === DIALECT_DRAFT_07 ? bare : undefined;
}

/**
 * One dialect's Ajv instance. Ajv holds every schema it compiled for its whole life, so the instance is
 * replaced after `compilesPerInstance` compilations; validators it already produced keep working.
 */
class DialectCompiler {
  readonly #create: () => Ajv | Ajv2020;
  readonly #compilesPerInstance: number;
  #ajv: Ajv | Ajv2020 | undefined;
  #compiles = 0;

  constructor(create: () => Ajv | Ajv2020, compilesPerInstance: number) {
    this.#create = create;
    this.#compilesPerInstance = compilesPerInstance;
  }

  /** Compiles with Ajv; throws what Ajv throws (invalid schema, unresolved `$ref`). */
  compile(schema: Record<string, unknown> | boolean): ValidateFunction {
    if (this.#ajv === undefined || this.#compiles >= this.#compilesPerInstance) {
      this.#ajv = this.#create();
      addFormats(this.#ajv);
      this.#compiles = 0;
    }
    this.#compiles += 1;
    return this.#ajv.compile(schema);
  }
}

const VALID: ValidateResult = Object.freeze({ valid: true });

function fromAjv(validateFunction: ValidateFunction): Validate {
  return (value) => {
    if (validateFunction(value) === true) return VALID;
    const lines = (validateFunction.errors ?? []).map(formatAjvError);
    return {
      valid: false,
      errors: lines.length > 0 ? [...new Set(lines)] : [formatErrorLine('', 'is invalid')],
    };
  };
}

function formatAjvError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  let message = error.message ?? `fails "${error.keyword}"`;
  if (typeof params['additionalProperty'] === 'string')
    message += ` (${JSON.stringify(params['additionalProperty'])})`;
  if (typeof params['unevaluatedProperty'] === 'string')
    message += ` (${JSON.stringify(params['unevaluatedProperty'])})`;
  if (error.keyword === 'enum') message += ` ${truncate(JSON.stringify(params['allowedValues']))}`;
  if (error.keyword === 'const') message += ` ${truncate(JSON.stringify(params['allowedValue']))}`;
  return formatErrorLine(error.instancePath, message);
}

function describeCompileError(error: unknown, dialect: Dialect): string {
  const missingRef = (error as { missingRef?: unknown } | null)?.missingRef;
  if (typeof missingRef === 'string') {
    return (
      `invalid JSON Schema: $ref ${JSON.stringify(missingRef)} does not resolve inside the schema; ` +
      'references outside the schema are never fetched'
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return `invalid JSON Schema (${dialect}): ${reason}`;
}

function lazily(compile: () => Validate): Validate {
  let compiled: Validate | undefined;
  return (value) => (compiled ??= compile())(value);
}

function alwaysFail(message: string): Validate {
  const line = formatErrorLine('', message);
  return () => ({ valid: false, errors: [line] });
}

function contentKey(schema: unknown): string | undefined {
  try {
    return toCanonicalJson(schema);
  } catch {
    return undefined; // cyclic or BigInt: not JSON, so cache by identity only and let compilation report it
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

function truncate(text: string | undefined, max = 200): string {
  if (text === undefined) return '';
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}
