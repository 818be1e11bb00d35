// The default validator, loaded on first use: Ajv where code generation is allowed (it is the fastest;
// importing it costs tens of milliseconds, which a stdio server should not pay before `initialize`), else
// @cfworker/json-schema. Bundles for edge runtimes get default-validator-edge.ts instead (package.json
// "imports", `#default-validator`), which never carries Ajv.

import { canGenerateCode } from './code-generation.ts';
import type { JsonSchema, JsonSchemaValidator, Validate } from './json-schema-validator.ts';

/**
 * Ajv (see `createAjvValidator`), or `createCfWorkerValidator` where `new Function` is forbidden, imported
 * the first time a schema is used. Until then `Validate` resolves asynchronously; afterwards it answers
 * synchronously. Both word failures alike, so which one ran does not show in the messages.
 */
export function createDefaultValidator(): JsonSchemaValidator {
  let loaded: JsonSchemaValidator | undefined;
  let loading: Promise<JsonSchemaValidator> | undefined;
  const load = (): Promise<JsonSchemaValidator> =>
    (loading ??= (
      canGenerateCode()
        ? import('./ajv-validator.ts').then((module) => module.createAjvValidator())
        : import('./cfworker-validator.ts').then((module) => module.createCfWorkerValidator())
    ).then((validator) => (loaded = validator)));
  return {
    compile(schema: JsonSchema): Validate {
      if (loaded) return loaded.compile(schema);
      const pending = load();
      let compiled: Validate | undefined;
      return (value) => {
        if (loaded) return (compiled ??= loaded.compile(schema))(value);
        return pending.then((validator) => (compiled ??= validator.compile(schema))(value));
      };
    },
  };
}
