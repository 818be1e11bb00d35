// spec/prompt-argument: each argument of a prompt has a name, and no two share one (PROMPT-2:
// `prompts/get` passes argument values by name).

import type { CheckFinding } from '../check-finding.ts';
import type { Definition } from '../definition.ts';
import { findingOf } from '../report.ts';
import { isObject } from '../schema-walk.ts';

/** spec/prompt-argument for every prompt. */
export function checkPromptArguments(definitions: readonly Definition[]): CheckFinding[] {
  const findings: CheckFinding[] = [];
  for (const definition of definitions) {
    const list = definition.value.arguments;
    if (definition.kind !== 'prompt' || list === undefined) continue;
    if (!Array.isArray(list)) {
      findings.push(
        findingOf('spec/prompt-argument', definition, {
          message: '"arguments" is not an array',
          fix: 'list the arguments as an array of {name, description?, required?}',
        }),
      );
      continue;
    }
    const seen = new Set<string>();
    list.forEach((argument: unknown, index) => {
      const name = isObject(argument) ? argument.name : undefined;
      if (typeof name !== 'string' || name === '')
        findings.push(
          findingOf('spec/prompt-argument', definition, {
            message: `argument ${index} has no name`,
            fix: 'give every argument a non-empty "name"',
          }),
        );
      else if (seen.has(name))
        findings.push(
          findingOf('spec/prompt-argument', definition, {
            message: `two arguments are named ${JSON.stringify(name)}: prompts/get can pass only one value for both`,
            fix: 'give each argument its own name',
          }),
        );
      else seen.add(name);
    });
  }
  return findings;
}
