// poison/hidden-text: characters a person reviewing a definition cannot see but a model reads:
// Unicode tag characters (U+E0000..U+E007F, which spell ASCII invisibly), zero-width characters, and
// bidi controls that reorder what is shown. Looked for in every string of the definition, keys too.

import type { CheckFinding } from '../check-finding.ts';
import type { Definition } from '../definition.ts';
import { findingOf } from '../report.ts';
import { textsOf } from '../schema-walk.ts';

/** Each class of hidden character and how a finding names it. */
const CLASSES: ReadonlyArray<{ words: string; pattern: RegExp }> = [
  { words: 'Unicode tag characters', pattern: /[\u{E0000}-\u{E007F}]/gu },
  { words: 'zero-width characters', pattern: /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E]/gu },
  { words: 'bidi controls', pattern: /[\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/gu },
];

/** At most this many code points are named in one finding. */
const SHOWN = 5;

/** poison/hidden-text: one finding per definition and class, naming the places and the code points. */
export function checkHiddenText(definitions: readonly Definition[]): CheckFinding[] {
  const findings: CheckFinding[] = [];
  for (const definition of definitions) {
    const texts = textsOf(definition.value);
    for (const { words, pattern } of CLASSES) {
      const places: string[] = [];
      const codes = new Set<string>();
      for (const { text, pointer, isKey } of texts) {
        const found = text.match(pattern);
        if (found === null) continue;
        places.push(`${isKey ? 'the key ' : ''}${pointer === '' ? '/' : pointer}`);
        for (const char of found)
          codes.add(`U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
      }
      if (places.length === 0) continue;
      const shown = [...codes].slice(0, SHOWN).join(', ') + (codes.size > SHOWN ? ', ...' : '');
      findings.push(
        findingOf('poison/hidden-text', definition, {
          message: `${words} (${shown}) in ${places.slice(0, SHOWN).join(', ')}${places.length > SHOWN ? ', ...' : ''}: text a reviewer cannot see but a model reads`,
          fix: 'remove the hidden characters; if the server is not yours, do not approve it until they are gone',
        }),
      );
    }
  }
  return findings;
}
