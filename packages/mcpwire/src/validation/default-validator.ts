// The default validator, loaded on first use: Ajv costs tens of milliseconds to import, which a
// server should not pay before it answers `initialize` (a stdio server is spawned per session).

import type { JsonSchema, JsonSchemaValidator, Validate } from './json-schema-validator.ts';

/**
 * Ajv (see `createAjvValidator`), imported the first time a schema is used. Until then `Validate`
 * resolves asynchronously; afterwards it answers synchronously. Caching is Ajv's.
 */
export function createDefaultValidator(): JsonSchemaValidator {
  let loaded: JsonSchemaValidator | undefined;
  let loading: Promise<JsonSchemaValidator> | undefined;
  const load = (): Promise<JsonSchemaValidator> =>
    (loading ??= import('./ajv-validator.ts').then((module) => (loaded = module.createAjvValidator())));
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
