// Repository contents: a file or a directory listing at a branch. A branch other than the default
// holds only the files it changed; every other path reads through to the default branch.

import type { Db } from '../database/db.ts';
import { fileUri } from '../uris.ts';
import { GithubInputError, quote } from './not-found.ts';
import { fullName, type RepositoryRow } from './repositories.ts';

/** A file with its text. */
export interface FileContents {
  type: 'file';
  path: string;
  ref: string;
  sha: string;
  size: number;
  content: string;
  uri: string;
}

/** A directory's entries (files and subdirectories), sorted by name. */
export interface DirectoryContents {
  type: 'dir';
  path: string;
  ref: string;
  entries: Array<{ type: 'file' | 'dir'; name: string; path: string }>;
}

/** The file or directory at `path` (''/'/' is the root) on `ref` (default: the default branch). */
export function getContents(
  db: Db,
  repository: RepositoryRow,
  path: string,
  ref?: string,
): FileContents | DirectoryContents {
  const branch = ref ?? repository.defaultBranch;
  const exists = db
    .prepare('SELECT 1 FROM branches WHERE repository_id = ? AND name = ?')
    .get(repository.id, branch);
  if (!exists) throw new GithubInputError(`No branch ${quote(branch)} in ${fullName(repository)}`);
  const clean = trimSlashes(path);
  const files = visibleFiles(db, repository, branch);
  const file = files.find((candidate) => candidate.path === clean);
  if (file) {
    const uri = fileUri(
      repository.owner,
      repository.name,
      file.path,
      branch === repository.defaultBranch ? undefined : branch,
    );
    return {
      type: 'file',
      path: file.path,
      ref: branch,
      sha: file.sha,
      size: Buffer.byteLength(file.content),
      content: file.content,
      uri,
    };
  }
  const prefix = clean === '' ? '' : `${clean}/`;
  const entries = new Map<string, { type: 'file' | 'dir'; name: string; path: string }>();
  for (const candidate of files) {
    if (!candidate.path.startsWith(prefix)) continue;
    const [name = '', ...rest] = candidate.path.slice(prefix.length).split('/');
    entries.set(name, { type: rest.length === 0 ? 'file' : 'dir', name, path: `${prefix}${name}` });
  }
  if (entries.size === 0)
    throw new GithubInputError(
      `No file or directory ${quote(clean)} in ${fullName(repository)} at ${quote(branch)}`,
    );
  return {
    type: 'dir',
    path: clean,
    ref: branch,
    entries: [...entries.values()].sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** `path` without leading and trailing `/`, in one pass (`/^\/+|\/+$/g` is quadratic on `x////...y`). */
function trimSlashes(path: string): string {
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === 0x2f) start++;
  while (end > start && path.charCodeAt(end - 1) === 0x2f) end--;
  return path.slice(start, end);
}

/** Paths on the default branch starting with `prefix` (for completion), sorted. */
export function listPaths(db: Db, repository: RepositoryRow, prefix: string): string[] {
  const rows = db
    .prepare(
      'SELECT path FROM files WHERE repository_id = ? AND ref = ? AND substr(path, 1, length(?)) = ? ORDER BY path',
    )
    .all(repository.id, repository.defaultBranch, prefix, prefix) as Array<{ path: string }>;
  return rows.map((row) => row.path);
}

function visibleFiles(
  db: Db,
  repository: RepositoryRow,
  branch: string,
): Array<{ path: string; sha: string; content: string }> {
  // The branch's own version of a path wins over the default branch's.
  return db
    .prepare(
      `SELECT path, sha, content FROM files f WHERE repository_id = ? AND (ref = ? OR (ref = ? AND NOT EXISTS (
                SELECT 1 FROM files g WHERE g.repository_id = f.repository_id AND g.ref = ? AND g.path = f.path)))
              ORDER BY path`,
    )
    .all(repository.id, branch, repository.defaultBranch, branch) as Array<{
    path: string;
    sha: string;
    content: string;
  }>;
}

/** The MIME type of a repository file, by extension (text/plain when unknown). */
export function mimeTypeOf(path: string): string {
  const extension = path.split('.').at(-1)?.toLowerCase() ?? '';
  const types: Record<string, string> = {
    md: 'text/markdown',
    ts: 'text/x-typescript',
    tsx: 'text/x-typescript',
    go: 'text/x-go',
    py: 'text/x-python',
    json: 'application/json',
    toml: 'application/toml',
  };
  return types[extension] ?? 'text/plain';
}
