// poison/instruction: text in a definition that addresses the model rather than describing the tool:
// "ignore previous instructions", <IMPORTANT> blocks, asking it to keep something from the user.
// Heuristics: a match is a reason to read the definition, a miss proves nothing.

import type { CheckFinding } from '../check-finding.ts';
import type { Definition } from '../definition.ts';
import { findingOf } from '../report.ts';
import { textsOf } from '../schema-walk.ts';

/** Each pattern and what it is, for the message. Matched against text with whitespace runs made one space. */
const PATTERNS: ReadonlyArray<{ words: string; pattern: RegExp }> = [
  {
    words: 'an instruction to ignore earlier instructions',
    pattern:
      /\b(ignore|disregard|forget) (all |any )?(the )?(previous|prior|above|earlier|other) (instructions|prompts?|rules)/i,
  },
  { words: 'an <IMPORTANT>-style block', pattern: /< ?\/?(important|system|instructions?) ?>/i },
  {
    words: 'an instruction to keep something from the user',
    pattern: /\b(do not|don't|never) (tell|inform|show|mention (this )?to|reveal (this )?to) the user/i,
  },
];

/** poison/instruction: one finding per definition and pattern, naming where the text is. */
export function checkInstructionText(definitions: readonly Definition[]): CheckFinding[] {
  const findings: CheckFinding[] = [];
  for (const definition of definitions) {
    const texts = textsOf(definition.value)
      .filter((found) => !found.isKey)
      .map((found) => ({ ...found, text: found.text.replace(/\s+/g, ' ') }));
    for (const { words, pattern } of PATTERNS) {
      const hit = texts.find(({ text }) => pattern.test(text));
      if (hit === undefined) continue;
      const excerpt = pattern.exec(hit.text)![0];
      findings.push(
        findingOf('poison/instruction', definition, {
          message: `${words} in ${hit.pointer === '' ? '/' : hit.pointer}: ${JSON.stringify(excerpt)}`,
          fix: 'describe what the tool does; never address the model with instructions (if the server is not yours, do not approve it)',
        }),
      );
    }
  }
  return findings;
}
