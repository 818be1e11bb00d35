// The everything server's skills (SEP-2640): what the conformance suite's sep-2640-* scenarios read,
// a skill with a subfolder (for resources/directory/read) and a second, single-file skill.

import { skills, type SkillsExtension } from 'mcpwire/extensions/skills';

/** The skill files, by path under the skills root. */
export const EVERYTHING_SKILL_FILES: Readonly<Record<string, string>> = {
  'pdf-processing/SKILL.md': `---
name: pdf-processing
description: Extract text and tables from PDF files, fill PDF forms, and merge documents.
license: MIT
metadata:
  author: mcpwire
  version: "1.0"
---

# PDF processing

Use \`scripts/extract.py\` to pull text out of a PDF. For forms, read [FORMS.md](references/FORMS.md).
`,
  'pdf-processing/references/FORMS.md': `# Filling PDF forms

1. List the form's fields.
2. Fill them from the user's answers.
3. Flatten the form before sending it on.
`,
  'pdf-processing/scripts/extract.py': `import sys

print(f"would extract the text of {sys.argv[1]}")
`,
  'release-notes/SKILL.md': `---
name: release-notes
description: Write release notes from a list of merged changes, grouped by kind.
---

Group the changes into Added, Changed and Fixed; one line each, newest first.
`,
};

/** The skills extension serving those files, with `resources/directory/read`. */
export function createEverythingSkills(): SkillsExtension {
  return skills(EVERYTHING_SKILL_FILES, { directoryRead: true });
}
