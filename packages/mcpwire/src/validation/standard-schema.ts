// User schemas for tools and prompts: any Standard Schema (https://standardschema.dev) or a raw JSON Schema.

import { formatErrorLine, toJsonPointer } from './error-line.ts';
import type { PathSegment } from './error-line.ts';
import type { JsonSchemaValidator, ValidateResult } from './json-schema-validator.ts';

/**
 * A Standard Schema v1 (zod, valibot, arktype, ...), optionally with the Standard JSON Schema converter.
 * Declared here, in the spec's own shape, so the SDK needs no dependency for it.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

// The Standard Schema spec publishes its types as this namespace; matching it lets any library's
// schema type-check against ours.
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace StandardSchemaV1 {
  /** The `~standard` property. */
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
    /** Present on libraries implementing Standard JSON Schema (zod >= 4.2, arktype). */
    readonly jsonSchema?: JsonSchemaConverter | undefined;
  }
  /** What `validate` returns: the (possibly transformed) value, or issues. */
  type Result<Output> =
    { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly Issue[] };
  /** One problem `validate` found. */
  interface Issue {
    readonly message: string;
    readonly path?: readonly PathSegment[] | undefined;
  }
  /** Phantom types carrying the schema's input and output. */
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  /** The Standard JSON Schema converter, `~standard.jsonSchema`. */
  interface JsonSchemaConverter {
    readonly input: (options: JsonSchemaOptions) => Record<string, unknown>;
    readonly output: (options: JsonSchemaOptions) => Record<string, unknown>;
  }
  interface JsonSchemaOptions {
    readonly target: 'draft-2020-12' | 'draft-07';
  }
  /** The type a schema accepts. */
  type InferInput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['input'];
  /** The type a schema produces once validated. */
  type InferOutput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output'];
}

/** A raw JSON Schema object, used verbatim. */
export type JsonSchemaObject = Record<string, unknown>;

/** What users may give as a tool or prompt schema. */
export type SchemaInput = StandardSchemaV1 | JsonSchemaObject;

/** The value type a schema produces once validated: the Standard Schema's output, `unknown` for JSON Schema. */
export type InferSchemaOutput<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : unknown;

/** The outcome of {@link validateWith}. */
export type ValidateWithResult<Output> = { ok: true; value: Output } | { ok: false; errors: string[] };

/** True when `value` carries a Standard Schema v1 `~standard` property (objects and callables, as arktype's). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  if (typeof props !== 'object' || props === null) return false;
  const { version, validate } = props as { version?: unknown; validate?: unknown };
  return version === 1 && typeof validate === 'function';
}

/**
 * The JSON Schema to advertise for `schema`: a Standard Schema is converted through `~standard.jsonSchema` to
 * 2020-12 (`input` for a tool's inputSchema, `output` for its outputSchema); a raw JSON Schema is returned as
 * the same object, never copied or changed (S26-SCHEMA-4). Throws a TypeError if the Standard Schema has no
 * converter or its converter fails (zod cannot express transforms or dates, for instance).
 */
export function toJsonSchema(schema: SchemaInput, io: 'input' | 'output'): Record<string, unknown> {
  if (!isStandardSchema(schema)) {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new TypeError(
        `toJsonSchema expected a Standard Schema or a JSON Schema object, received ${describe(schema)}`,
      );
    }
    return schema;
  }
  const { vendor, jsonSchema } = schema['~standard'];
  if (jsonSchema === undefined) {
    throw new TypeError(
      `The "${vendor}" Standard Schema has no ~standard.jsonSchema, so no JSON Schema can be derived from it: ` +
        'use a library implementing Standard JSON Schema (zod >= 4.2, arktype) or pass a JSON Schema object',
    );
  }
  let converted: unknown;
  try {
    converted = jsonSchema[io]({ target: 'draft-2020-12' });
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new TypeError(`The "${vendor}" schema cannot be converted to JSON Schema (${io}): ${reason}`, {
      cause,
    });
  }
  if (typeof converted !== 'object' || converted === null || Array.isArray(converted)) {
    throw new TypeError(
      `The "${vendor}" JSON Schema converter returned ${describe(converted)}, expected an object`,
    );
  }
  return converted as Record<string, unknown>;
}

/**
 * Validates `value` against `schema`. A Standard Schema runs its own `validate` (awaited; its value may be
 * transformed, e.g. defaults applied); a raw JSON Schema goes through `validator` and the value is returned
 * unchanged. Errors are `<JSON Pointer>: <message>` lines. Rejects only if the Standard Schema itself throws.
 */
export function validateWith<S extends SchemaInput>(
  schema: S,
  value: unknown,
  validator: JsonSchemaValidator,
): ValidateWithResult<InferSchemaOutput<S>> | Promise<ValidateWithResult<InferSchemaOutput<S>>> {
  if (!isStandardSchema(schema)) {
    const result = validator.compile(schema)(value);
    // A synchronous validator (Ajv once loaded) answers without a promise.
    return result instanceof Promise
      ? result.then((settled) => fromJsonSchemaResult<S>(settled, value))
      : fromJsonSchemaResult<S>(result, value);
  }
  const result = schema['~standard'].validate(value);
  return result instanceof Promise
    ? result.then((settled) => fromStandardResult<S>(settled))
    : fromStandardResult<S>(result);
}

function fromJsonSchemaResult<S extends SchemaInput>(
  result: ValidateResult,
  value: unknown,
): ValidateWithResult<InferSchemaOutput<S>> {
  return result.valid
    ? { ok: true, value: value as InferSchemaOutput<S> }
    : { ok: false, errors: result.errors };
}

function fromStandardResult<S extends SchemaInput>(
  result: StandardSchemaV1.Result<unknown>,
): ValidateWithResult<InferSchemaOutput<S>> {
  if (result.issues === undefined) return { ok: true, value: result.value as InferSchemaOutput<S> };
  const errors = result.issues.map((issue) =>
    formatErrorLine(toJsonPointer(issue.path ?? []), issue.message),
  );
  return { ok: false, errors: errors.length > 0 ? errors : [formatErrorLine('', 'is invalid')] };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}
