// spec/tool-name and spec/duplicate-name: what a tool is called, and that each name, uri and
// uriTemplate is listed once (TOOL-5).

import type { CheckContext, CheckFinding } from '../check-finding.ts';
import type { Definition } from '../definition.ts';
import { findingOf } from '../report.ts';
import { describeNameProblem } from './name-problem.ts';

/** TOOL-5 (SEP-986): SHOULD be 1 to 128 of these. */
const SPEC_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The first revision whose spec says what a tool name should be. */
const TOOL_NAME_REVISION = '2025-11-25';

/** spec/tool-name: a warning from 2025-11-25 on (a SHOULD), a note for earlier revisions. */
export function checkToolNames(definitions: readonly Definition[], context: CheckContext): CheckFinding[] {
  const isRequired = context.protocolVersion >= TOOL_NAME_REVISION;
  return definitions
    .filter((definition) => definition.kind === 'tool' && !SPEC_TOOL_NAME.test(definition.name))
    .map((definition) => {
      const problem = describeNameProblem(definition.name, SPEC_TOOL_NAME);
      return findingOf('spec/tool-name', definition, {
        message:
          `the tool name ${describeName(definition.name)} is not 1 to 128 of A-Z a-z 0-9 _ - . (TOOL-5): ${problem.message}` +
          (isRequired
            ? ''
            : ` (a rule from ${TOOL_NAME_REVISION} on; this server speaks ${context.protocolVersion})`),
        fix: problem.fix,
        ...(isRequired ? {} : { severity: 'note' as const }),
      });
    });
}

/** spec/duplicate-name: the second and later definitions of a kind with a name already seen. */
export function checkDuplicateNames(definitions: readonly Definition[]): CheckFinding[] {
  const seen = new Set<string>();
  const findings: CheckFinding[] = [];
  for (const definition of definitions) {
    const key = `${definition.kind}\u0000${definition.name}`;
    if (!seen.has(key)) {
      seen.add(key);
      continue;
    }
    findings.push(
      findingOf('spec/duplicate-name', definition, {
        message: `a second ${definition.kind} is listed as ${describeName(definition.name)}: a client can reach only one of them`,
        fix: 'give each definition its own name (uri, uriTemplate)',
      }),
    );
  }
  return findings;
}

function describeName(name: string): string {
  return name === '' ? '(empty)' : JSON.stringify(name);
}
