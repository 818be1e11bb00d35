// spec/schema-type, spec/schema-invalid, spec/schema-too-deep: a tool's inputSchema and outputSchema
// are object schemas (TOOL-2, TOOL-3; S26-TOOL-1 frees outputSchema) that compile in their dialect,
// compiled by the same Ajv validator mcpwire's Client uses (mcpwire/validators/ajv).

import { createAjvValidator } from 'mcpwire/validators/ajv';
import type { CheckContext, CheckFinding } from '../check-finding.ts';
import type { Definition } from '../definition.ts';
import { findingOf } from '../report.ts';
import { isObject, MAX_SCHEMA_DEPTH, schemaNodes } from '../schema-walk.ts';

/** From this revision on an outputSchema may be any schema (S26-TOOL-1). */
const ANY_OUTPUT_SCHEMA_REVISION = '2026-07-28';

/** What the validator says of a schema it cannot use, as opposed to a value failing it. */
const UNUSABLE = /^\(root\): (invalid JSON Schema|unsupported JSON Schema dialect)/;

/** The three schema rules, for every tool. */
export function checkSchemas(definitions: readonly Definition[], context: CheckContext): CheckFinding[] {
  const validator = createAjvValidator({ cacheSize: 50 });
  const findings: CheckFinding[] = [];
  for (const definition of definitions) {
    if (definition.kind !== 'tool') continue;
    for (const field of ['inputSchema', 'outputSchema'] as const) {
      const schema = definition.value[field];
      if (schema === undefined && field === 'outputSchema') continue;
      const mustBeObject = field === 'inputSchema' || context.protocolVersion < ANY_OUTPUT_SCHEMA_REVISION;
      if (mustBeObject && !(isObject(schema) && schema.type === 'object')) {
        findings.push(
          findingOf('spec/schema-type', definition, {
            message: `${field} is ${describeRoot(schema)}; it must be a JSON Schema object with type "object"`,
            fix: `make ${field} {"type": "object", "properties": {...}} (no parameters: {"type": "object", "additionalProperties": false})`,
          }),
        );
        if (!isObject(schema)) continue;
      }
      if (schemaNodes(schema).isTooDeep) {
        findings.push(
          findingOf('spec/schema-too-deep', definition, {
            message: `${field} nests deeper than ${MAX_SCHEMA_DEPTH} levels: it was neither compiled nor checked below that depth`,
            fix: `flatten ${field}; model APIs refuse far shallower schemas`,
          }),
        );
        continue;
      }
      const result = validator.compile(schema as Record<string, unknown>)(undefined);
      const unusable = result.valid ? undefined : result.errors.find((line) => UNUSABLE.test(line));
      if (unusable !== undefined)
        findings.push(
          findingOf('spec/schema-invalid', definition, {
            message: `${field} does not compile: ${toSchemaPlaces(unusable, field)}`,
            fix: `correct ${field} so that it is valid JSON Schema 2020-12 (or the dialect its $schema names)`,
          }),
        );
    }
  }
  return findings;
}

function describeRoot(schema: unknown): string {
  if (schema === undefined) return 'missing';
  if (!isObject(schema))
    return `not an object (${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema})`;
  return schema.type === undefined ? 'an object without "type"' : `of type ${JSON.stringify(schema.type)}`;
}

/**
 * The validator's line with Ajv's meta-schema paths (`data/properties/n/minimum`: the schema seen as
 * the data of the meta-schema) named after the field instead (`inputSchema/properties/n/minimum`).
 */
function toSchemaPlaces(line: string, field: string): string {
  // Word by word, not one regular expression: the paths hold the server's property names.
  return line
    .replace(/^\(root\): /, '')
    .replace('schema is invalid: ', '')
    .split(' ')
    .map((word) => (word === 'data' || word.startsWith('data/') ? `${field}${word.slice(4)}` : word))
    .join(' ');
}
