// The unified diffs of seeded pull requests: hunks with three lines of context, counts as GitHub
// counts them, added files, and nearby changes merged into one hunk.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPatch, toFileDiff } from '../src/seed/unified-diff.ts';

const lines = (count: number): string =>
  Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n') + '\n';

test('one changed line: a hunk with three lines of context each side', () => {
  const before = lines(10);
  const after = before.replace('line 5\n', 'line five\n');
  assert.deepEqual(createPatch(before, after), {
    patch: [
      '@@ -2,7 +2,7 @@',
      ' line 2',
      ' line 3',
      ' line 4',
      '-line 5',
      '+line five',
      ' line 6',
      ' line 7',
      ' line 8',
    ].join('\n'),
    additions: 1,
    deletions: 1,
  });
});

test('changes far apart make two hunks; close ones share one', () => {
  const before = lines(30);
  const far = before.replace('line 3\n', 'line 3\nnew a\n').replace('line 25\n', 'line 25\nnew b\n');
  assert.equal(createPatch(before, far).patch.match(/^@@/gm)?.length, 2);
  const near = before.replace('line 3\n', 'line 3\nnew a\n').replace('line 8\n', 'line 8\nnew b\n');
  assert.equal(createPatch(before, near).patch.match(/^@@/gm)?.length, 1);
});

test('an added file is all additions, with /dev/null as its old side', () => {
  const { patch, additions, deletions } = createPatch('', 'a\nb\n');
  assert.deepEqual([patch, additions, deletions], ['@@ -0,0 +1,2 @@\n+a\n+b', 2, 0]);
  assert.equal(
    toFileDiff('x.ts', 'added', patch),
    'diff --git a/x.ts b/x.ts\n--- /dev/null\n+++ b/x.ts\n@@ -0,0 +1,2 @@\n+a\n+b\n',
  );
});
