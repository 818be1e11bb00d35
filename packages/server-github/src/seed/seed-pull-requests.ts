// Seeded pull requests: a branch that edits one to three files of the default branch (and sometimes
// adds a test), its files and unified patches, and its state: open, draft, merged or closed.

import type { Random } from './random.ts';
import { insertIssueRow, type SeedContext, type SeededRepository } from './seed-issues.ts';
import { createPatch } from './unified-diff.ts';

const EDITS = {
  typescript: [
    '  if (key.length > 256) throw new RangeError("key too long");',
    '  metrics.increment("retries");',
    '  // Keep the session cookie across redirects.',
  ],
  go: [
    '\tif len(key) > 256 {\n\t\treturn errors.New("key too long")\n\t}',
    '\tmetrics.Inc("retries_total")',
    '\t// Refill before checking so bursts are fair.',
  ],
  python: [
    '    if len(items) > 512:\n        items = items[:512]',
    '    metrics.increment("retries")',
    '    # Drop spans that are already exported.',
  ],
} as const;

const PREFIXES = ['Fix', 'Handle', 'Guard', 'Speed up', 'Refactor'];

/** Seeds pull request `number`: its issue row, branch, changed files and state. */
export function seedPullRequest(context: SeedContext, repository: SeededRepository, number: number): void {
  const { db, random } = context;
  const area = random.pick(repository.spec.areas);
  const related = random.integer(1, Math.max(1, number - 1));
  const roll = random.next();
  const state = roll < 0.4 ? 'open' : 'closed';
  const title = `${random.pick(PREFIXES)} ${area} handling`;
  const body = `Fixes #${related}.\n\nThis changes how ${area} behaves and adds a regression test.\n`;
  const issueId = insertIssueRow(context, repository, { number, title, body, isPullRequest: true, state });
  const headRef = `${random.pick(['fix', 'feat', 'chore'])}/${area.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${number}`;
  const { closedAt } = db.prepare('SELECT closed_at AS closedAt FROM issues WHERE id = ?').get(issueId) as {
    closedAt: string | null;
  };
  const isMerged = closedAt !== null && roll < 0.85;
  const merger = isMerged ? context.userIds.get(random.pick(repository.spec.maintainers))! : null;
  db.prepare(
    `INSERT INTO pull_requests (issue_id, head_ref, base_ref, head_sha, base_sha, is_draft, merged_at, merged_by_id)
              VALUES (?, ?, 'main', ?, ?, ?, ?, ?)`,
  ).run(
    issueId,
    headRef,
    random.hex(40),
    random.hex(40),
    state === 'open' && random.chance(0.25) ? 1 : 0,
    isMerged ? closedAt : null,
    merger,
  );
  db.prepare('INSERT INTO branches (repository_id, name, head_sha) VALUES (?, ?, ?)').run(
    repository.id,
    headRef,
    random.hex(40),
  );
  seedChangedFiles(context, repository, { issueId, headRef });
}

function seedChangedFiles(
  context: SeedContext,
  repository: SeededRepository,
  pull: { issueId: number; headRef: string },
): void {
  const { db, random } = context;
  const modules = repository.spec.files.map((file) => file.path);
  const changes = random.sample(modules, random.integer(1, Math.min(3, modules.length))).map((path) => {
    const before = repository.defaultFiles.get(path)!;
    return { path, before, after: editText(before, repository.spec.language, random) };
  });
  if (random.chance(0.3)) {
    const path = testPathFor(repository.spec.language, pull.issueId);
    changes.push({ path, before: '', after: `// Regression test for pull request ${pull.headRef}.\n` });
  }
  const insertChange =
    db.prepare(`INSERT INTO pull_request_files (pull_request_id, filename, status, additions, deletions, patch)
                                   VALUES (?, ?, ?, ?, ?, ?)`);
  const insertFile = db.prepare(
    'INSERT INTO files (repository_id, ref, path, content, sha) VALUES (?, ?, ?, ?, ?)',
  );
  for (const change of changes) {
    const { patch, additions, deletions } = createPatch(change.before, change.after);
    insertChange.run(
      pull.issueId,
      change.path,
      change.before === '' ? 'added' : 'modified',
      additions,
      deletions,
      patch,
    );
    insertFile.run(repository.id, pull.headRef, change.path, change.after, random.hex(40));
  }
}

/** The text with one or two lines inserted and maybe one removed, inside a function body. */
function editText(text: string, language: keyof typeof EDITS, random: Random): string {
  const lines = text.split('\n');
  const bodyLines = lines
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => /^(\t| {2,4})\S/.test(line));
  for (let edits = random.integer(1, 2); edits > 0 && bodyLines.length > 0; edits--) {
    const at = random.pick(bodyLines).index;
    lines.splice(at + 1, 0, random.pick(EDITS[language]));
  }
  if (random.chance(0.4) && bodyLines.length > 1) {
    const { index } = random.pick(bodyLines);
    if (!/return/.test(lines[index] ?? 'return')) lines.splice(index, 1);
  }
  return lines.join('\n');
}

function testPathFor(language: keyof typeof EDITS, id: number): string {
  if (language === 'go') return `internal/regression/regression_${id}_test.go`;
  if (language === 'python') return `tests/test_regression_${id}.py`;
  return `test/regression-${id}.test.ts`;
}
