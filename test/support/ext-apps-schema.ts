// ext-apps' JSON Schema (`@modelcontextprotocol/ext-apps/schema.json`) as validators, one per definition.
// Each `$defs` entry is a standalone schema (its own `$schema`, and `$ref`s such as `#/$defs/__schema0`
// into its own nested `$defs`), so each is compiled as its own document, not through the file's root.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

const schema = createRequire(import.meta.url)('@modelcontextprotocol/ext-apps/schema.json') as {
  $id: string;
  $defs: Record<string, object>;
};
const ajv = new Ajv2020({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

/** The validator of definition `name` (e.g. `McpUiToolMeta`); throws if the package has no such definition. */
export function extAppsValidator(name: string): ValidateFunction {
  const cached = compiled.get(name);
  if (cached) return cached;
  const definition = schema.$defs[name];
  assert.ok(definition, `ext-apps' schema.json defines ${name}`);
  const validate = ajv.compile({ ...definition, $id: `${schema.$id}/${name}` });
  compiled.set(name, validate);
  return validate;
}

/** Asserts `value` is an instance of definition `name`, naming every failed rule and the value. */
export function assertExtAppsSchema(name: string, value: unknown, what = name): void {
  const validate = extAppsValidator(name);
  assert.ok(validate(value), `${what}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`);
}

/**
 * A full `styles.variables` map of a host context: ext-apps' type is a Record over every standard
 * variable name, so a host sends each; those not in `values` are `initial` (a view then uses its own).
 */
export function styleVariables(values: Record<string, string>): Record<string, string> {
  const names = (schema.$defs.McpUiStyleVariableKey as { anyOf: Array<{ const: string }> }).anyOf.map(
    (each) => each.const,
  );
  for (const name of Object.keys(values))
    assert.ok(names.includes(name), `${name} is a standard style variable`);
  return Object.fromEntries(names.map((name) => [name, values[name] ?? 'initial']));
}
