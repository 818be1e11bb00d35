// The pluggable JSON Schema contract that client and server validate through; implementations live beside it.

/** A JSON Schema document: an object, or the boolean schemas `true` (accept all) and `false` (reject all). */
export type JsonSchema = Record<string, unknown> | boolean;

/**
 * The outcome of one validation. `errors` holds readable one-liners, each naming the instance path as a JSON
 * Pointer (`/a/0: must be number`, `(root): must be object`).
 */
export type ValidateResult = { valid: true } | { valid: false; errors: string[] };

/** Checks one value against the schema it was compiled from. Synchronous, never throws, safe to call repeatedly. */
export type Validate = (value: unknown) => ValidateResult | Promise<ValidateResult>;

/**
 * Turns schemas into validators. `compile` never throws: a schema that cannot be used (unsupported dialect,
 * invalid under its dialect, unresolvable `$ref`) yields a `Validate` that always fails and says why (SCHEMA-3).
 * Schemas are treated as immutable once passed in, since implementations may cache by identity.
 */
export interface JsonSchemaValidator {
  compile(schema: JsonSchema): Validate;
}

/** A validator whose checks always answer at once (Ajv once loaded). */
export interface SyncJsonSchemaValidator extends JsonSchemaValidator {
  compile(schema: JsonSchema): (value: unknown) => ValidateResult;
}
