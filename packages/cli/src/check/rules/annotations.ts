// spec/annotations-contradict: a tool cannot be read-only and destructive at once. The spec gives
// destructiveHint a meaning only when readOnlyHint is false (ToolAnnotations), so both true is a
// contradiction a host resolves one way or the other.

import type { CheckFinding } from '../check-finding.ts';
import type { Definition } from '../definition.ts';
import { findingOf } from '../report.ts';
import { isObject } from '../schema-walk.ts';

/** spec/annotations-contradict for every tool. */
export function checkAnnotations(definitions: readonly Definition[]): CheckFinding[] {
  return definitions
    .filter((definition) => {
      const annotations = definition.value.annotations;
      return (
        definition.kind === 'tool' &&
        isObject(annotations) &&
        annotations.readOnlyHint === true &&
        annotations.destructiveHint === true
      );
    })
    .map((definition) =>
      findingOf('spec/annotations-contradict', definition, {
        message: 'annotated both readOnlyHint: true and destructiveHint: true',
        fix: 'drop destructiveHint from a read-only tool, or set readOnlyHint: false for one that changes things',
      }),
    );
}
