// How a check rule makes a finding: the rule's default severity unless the rule says otherwise.

import type { CheckFinding, CheckSeverity } from './check-finding.ts';
import { lookupCheckRule, type CheckRuleId } from './check-rules.ts';
import type { Definition } from './definition.ts';

/** A finding of `rule` at `definition` (or the whole server when undefined). */
export function findingOf(
  rule: CheckRuleId,
  definition: Definition | undefined,
  text: { message: string; fix: string; severity?: CheckSeverity },
): CheckFinding {
  return {
    rule,
    severity: text.severity ?? lookupCheckRule(rule)!.severity,
    kind: definition?.kind ?? 'server',
    name: definition?.name ?? '',
    message: text.message,
    fix: text.fix,
  };
}
