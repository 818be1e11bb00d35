// The default validator of bundles for edge runtimes (the `workerd`, `worker`, `edge-light` and `browser`
// conditions, see package.json "imports"): @cfworker/json-schema only, so Ajv is never bundled.

import { createCfWorkerValidator } from './cfworker-validator.ts';
import type { JsonSchemaValidator } from './json-schema-validator.ts';

/** `createCfWorkerValidator()`: synchronous from the first schema, no code generation. */
export function createDefaultValidator(): JsonSchemaValidator {
  return createCfWorkerValidator();
}
