// Unified diffs (the `patch` of a pull request file, as GitHub shows it): a line-based LCS diff of
// two texts, grouped into hunks with three lines of context.

const CONTEXT = 3;

/** One line of an edit script: kept, removed from the old text, or added in the new. */
interface Edit {
  kind: ' ' | '-' | '+';
  text: string;
  oldLine: number;
  newLine: number;
}

/** What a patch changed, counted as GitHub counts it. */
export interface Patch {
  /** The hunks only (`@@ ... @@` lines and their bodies), without file headers: GitHub's `patch`. */
  patch: string;
  additions: number;
  deletions: number;
}

/** The unified diff from `before` to `after` (either may be '' for an added or removed file). */
export function createPatch(before: string, after: string): Patch {
  const edits = diffLines(toLines(before), toLines(after));
  const additions = edits.filter((edit) => edit.kind === '+').length;
  const deletions = edits.filter((edit) => edit.kind === '-').length;
  return { patch: toHunks(edits).join('\n'), additions, deletions };
}

/** A full `git diff`-style section for one file: headers, then the patch. */
export function toFileDiff(filename: string, status: string, patch: string): string {
  const from = status === 'added' ? '/dev/null' : `a/${filename}`;
  const to = status === 'removed' ? '/dev/null' : `b/${filename}`;
  return `diff --git a/${filename} b/${filename}\n--- ${from}\n+++ ${to}\n${patch}\n`;
}

function toLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The shortest edit script by longest common subsequence (the files are small). */
function diffLines(a: readonly string[], b: readonly string[]): Edit[] {
  const lengths: number[][] = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i]![j] =
        a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      edits.push({ kind: ' ', text: a[i]!, oldLine: ++i, newLine: ++j });
    } else if (i < a.length && (j === b.length || lengths[i + 1]![j]! >= lengths[i]![j + 1]!)) {
      // Removals before additions on a tie, as git prints them.
      edits.push({ kind: '-', text: a[i]!, oldLine: ++i, newLine: j });
    } else {
      edits.push({ kind: '+', text: b[j]!, oldLine: i, newLine: ++j });
    }
  }
  return edits;
}

/** Groups the changes with their context into `@@ -a,b +c,d @@` hunks. */
function toHunks(edits: readonly Edit[]): string[] {
  const hunks: string[] = [];
  let index = 0;
  while (index < edits.length) {
    const first = edits.findIndex((edit, at) => at >= index && edit.kind !== ' ');
    if (first === -1) break;
    let last = first;
    for (let at = first; at < edits.length && at <= last + 2 * CONTEXT; at++)
      if (edits[at]!.kind !== ' ') last = at;
    const start = Math.max(0, first - CONTEXT);
    const end = Math.min(edits.length, last + CONTEXT + 1);
    hunks.push(formatHunk(edits.slice(start, end)));
    index = end;
  }
  return hunks;
}

function formatHunk(lines: readonly Edit[]): string {
  const oldCount = lines.filter((line) => line.kind !== '+').length;
  const newCount = lines.filter((line) => line.kind !== '-').length;
  const firstOld = lines.find((line) => line.kind !== '+');
  const firstNew = lines.find((line) => line.kind !== '-');
  const oldStart = firstOld ? firstOld.oldLine : (lines[0]?.oldLine ?? 0);
  const newStart = firstNew ? firstNew.newLine : (lines[0]?.newLine ?? 0);
  const header = `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`;
  return [header, ...lines.map((line) => `${line.kind}${line.text}`)].join('\n');
}
