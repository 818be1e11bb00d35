// Every check rule over a listing, in the order of the catalogue (check-rules.ts).

import type { CheckContext, CheckFinding } from '../check-finding.ts';
import type { Definition } from '../definition.ts';
import { checkAnnotations } from './annotations.ts';
import { checkClientCompat } from './client-compat.ts';
import { checkHiddenText } from './hidden-text.ts';
import { checkHygiene } from './hygiene.ts';
import { checkInstructionText } from './instruction-text.ts';
import { checkListingChanged } from './listing-changed.ts';
import { checkDuplicateNames, checkToolNames } from './names.ts';
import { checkPromptArguments } from './prompt-arguments.ts';
import { checkSchemas } from './schemas.ts';
import { checkUriTemplates } from './uri-template.ts';

/** The findings of every rule for `definitions`, grouped by rule family (spec, compat, poison, hygiene). */
export function runCheckRules(definitions: readonly Definition[], context: CheckContext): CheckFinding[] {
  return [
    ...checkToolNames(definitions, context),
    ...checkDuplicateNames(definitions),
    ...checkSchemas(definitions, context),
    ...checkPromptArguments(definitions),
    ...checkUriTemplates(definitions),
    ...checkAnnotations(definitions),
    ...checkClientCompat(definitions, context),
    ...checkHiddenText(definitions),
    ...checkInstructionText(definitions),
    ...checkListingChanged(definitions, context),
    ...checkHygiene(definitions),
  ];
}
