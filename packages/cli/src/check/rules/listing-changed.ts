// poison/listing-changed: a tool or prompt whose definition differs between two listings in the same
// connection, moments apart. A server that shows one description when it is reviewed and another when
// it is used is the "rug pull" of tool poisoning; nothing legitimate rewrites a definition that fast.

import { sha256Of } from '../canonical-json.ts';
import type { CheckContext, CheckFinding } from '../check-finding.ts';
import type { Definition } from '../definition.ts';
import { findingOf } from '../report.ts';
import { describeChanges } from '../value-diff.ts';

/** poison/listing-changed: each tool or prompt listed again under its name with other content. */
export function checkListingChanged(
  definitions: readonly Definition[],
  context: CheckContext,
): CheckFinding[] {
  if (context.relisted === undefined) return [];
  const again = new Map<string, Definition>();
  for (const definition of context.relisted) {
    const key = `${definition.kind}\u0000${definition.name}`;
    if (!again.has(key)) again.set(key, definition);
  }
  const findings: CheckFinding[] = [];
  const seen = new Set<string>();
  for (const definition of definitions) {
    const key = `${definition.kind}\u0000${definition.name}`;
    const later = again.get(key);
    if (seen.has(key) || later === undefined) continue;
    seen.add(key);
    if (sha256Of(later.value) !== sha256Of(definition.value))
      findings.push(
        findingOf('poison/listing-changed', definition, {
          message: `listed again in the same connection, the ${definition.kind} reads differently: ${describeChanges(definition.value, later.value)}`,
          fix: 'list the same definition every time; if the server is not yours, do not approve it',
        }),
      );
  }
  return findings;
}
