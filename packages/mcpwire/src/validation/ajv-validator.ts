// The JsonSchemaValidator on Ajv, for JSON Schema 2020-12 and draft-07, compiled lazily and cached. Ajv compiles
// validators to JavaScript with `new Function`, so it runs only where code generation is allowed.

import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, Options as AjvOptions, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { formatErrorLine } from './error-line.ts';
import type { JsonSchema, SyncJsonSchemaValidator } from './json-schema-validator.ts';
import {
  createCachingValidator,
  dialectOf,
  DIALECT_2020_12,
  DIALECT_DRAFT_07,
  truncate,
  unresolvedRefFailure,
  alwaysFail,
  VALID,
  type Dialect,
  type SyncValidate,
} from './schema-dialect.ts';

export { supportedDialects } from './schema-dialect.ts';

// ajv-formats is CommonJS: under NodeNext its default import is `module.exports`, which carries `.default`.
const addFormats = addFormatsModule.default;

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
  return createCachingValidator((schema) => compileNow(schema, compilers), cacheSize);
}

function compileNow(schema: JsonSchema, compilers: Record<Dialect, DialectCompiler>): SyncValidate {
  const dialect = dialectOf(schema);
  if (typeof dialect === 'function') return dialect;
  try {
    return fromAjv(compilers[dialect].compile(schema as Record<string, unknown> | boolean));
  } catch (error) {
    const missingRef = (error as { missingRef?: unknown } | null)?.missingRef;
    if (typeof missingRef === 'string') return unresolvedRefFailure(missingRef);
    const reason = error instanceof Error ? error.message : String(error);
    return alwaysFail(`invalid JSON Schema (${dialect}): ${reason}`);
  }
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

function fromAjv(validateFunction: ValidateFunction): SyncValidate {
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
