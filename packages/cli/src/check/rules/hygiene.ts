// The hygiene/* rules: what makes a definition hard for a model to use well: no description, a
// parameter without one, "required" naming a property the schema never declares.

import type { CheckFinding } from '../check-finding.ts';
import type { Definition } from '../definition.ts';
import { findingOf } from '../report.ts';
import { isObject, schemaNodes } from '../schema-walk.ts';

/** hygiene/missing-description, hygiene/parameter-description and hygiene/required-absent. */
export function checkHygiene(definitions: readonly Definition[]): CheckFinding[] {
  const findings: CheckFinding[] = [];
  for (const definition of definitions) {
    if (definition.kind !== 'tool' && definition.kind !== 'prompt') continue;
    if (!hasText(definition.value.description))
      findings.push(
        findingOf('hygiene/missing-description', definition, {
          message: `the ${definition.kind} has no description: a model chooses ${definition.kind}s by what their descriptions say`,
          fix: `add a description saying what the ${definition.kind} does and when to use it`,
        }),
      );
    if (definition.kind === 'prompt') findings.push(...promptArguments(definition));
    else findings.push(...toolParameters(definition));
  }
  return findings;
}

function promptArguments(definition: Definition): CheckFinding[] {
  const list = definition.value.arguments;
  if (!Array.isArray(list)) return [];
  const bare = list.filter(
    (argument: unknown) =>
      isObject(argument) && typeof argument.name === 'string' && !hasText(argument.description),
  );
  return bare.map((argument) =>
    findingOf('hygiene/parameter-description', definition, {
      message: `the argument ${JSON.stringify((argument as { name: string }).name)} has no description`,
      fix: 'describe what the argument is and what values it takes',
    }),
  );
}

function toolParameters(definition: Definition): CheckFinding[] {
  const findings: CheckFinding[] = [];
  const schema = definition.value.inputSchema;
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const bare = Object.keys(properties).filter(
    (name) => isObject(properties[name]) && !hasText(properties[name].description),
  );
  if (bare.length > 0)
    findings.push(
      findingOf('hygiene/parameter-description', definition, {
        message: `${bare.length === 1 ? 'the parameter' : 'the parameters'} ${bare.map((name) => JSON.stringify(name)).join(', ')} ${bare.length === 1 ? 'has' : 'have'} no description`,
        fix: 'describe each parameter: what it is and what values it takes',
      }),
    );
  for (const field of ['inputSchema', 'outputSchema'] as const)
    for (const { schema: node, pointer } of schemaNodes(definition.value[field]).nodes) {
      if (!Array.isArray(node.required) || !isObject(node.properties)) continue;
      const declared = node.properties;
      const absent = node.required.filter(
        (name): name is string => typeof name === 'string' && !Object.hasOwn(declared, name),
      );
      if (absent.length > 0)
        findings.push(
          findingOf('hygiene/required-absent', definition, {
            message: `${field}${pointer} requires ${absent.map((name) => JSON.stringify(name)).join(', ')}, which its "properties" do not declare`,
            fix: 'declare the property, or take it out of "required"',
          }),
        );
    }
  return findings;
}

function hasText(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}
