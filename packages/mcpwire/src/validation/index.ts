// The JSON Schema layer shared by client and server: the validator contract, Ajv, user schemas, elicitation defaults.

export type {
  JsonSchema,
  JsonSchemaValidator,
  SyncJsonSchemaValidator,
  Validate,
  ValidateResult,
} from './json-schema-validator.ts';
export { isStandardSchema, toJsonSchema, validateWith } from './standard-schema.ts';
export type {
  InferSchemaOutput,
  JsonSchemaObject,
  SchemaInput,
  StandardSchemaV1,
  ValidateWithResult,
} from './standard-schema.ts';
export { applyElicitationDefaults } from './elicitation-defaults.ts';
export type { ElicitationDefault, ElicitationSchemaLike } from './elicitation-defaults.ts';
export { toCanonicalJson } from './canonical-json.ts';
