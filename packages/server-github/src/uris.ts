// The github server's resource URIs, written once: the templates it registers and the URIs of
// the issues, pull requests, diffs and files they address.

/** An issue, or a pull request seen as an issue (RES-2 template). */
export const ISSUE_TEMPLATE = 'github://repos/{owner}/{repo}/issues/{number}';
/** A pull request. */
export const PULL_TEMPLATE = 'github://repos/{owner}/{repo}/pulls/{number}';
/** A pull request's unified diff. */
export const DIFF_TEMPLATE = 'github://repos/{owner}/{repo}/pulls/{number}/diff';
/** A file; `{+path}` keeps the path's slashes (RFC 6570 reserved expansion); `ref` defaults to the default branch. */
export const FILE_TEMPLATE = 'github://repos/{owner}/{repo}/contents/{+path}{?ref}';

/** The URI of issue `number` of `owner/repo`. */
export function issueUri(owner: string, repo: string, number: number): string {
  return `github://repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/issues/${number}`;
}

/** The URI of pull request `number` of `owner/repo`. */
export function pullUri(owner: string, repo: string, number: number): string {
  return `github://repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/pulls/${number}`;
}

/** The URI of the diff of pull request `number` of `owner/repo`. */
export function diffUri(owner: string, repo: string, number: number): string {
  return `${pullUri(owner, repo, number)}/diff`;
}

/** The URI of file `path` of `owner/repo` (each segment percent-encoded, the slashes kept), at `ref` if given. */
export function fileUri(owner: string, repo: string, path: string, ref?: string): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  const query = ref === undefined ? '' : `?ref=${encodeURIComponent(ref)}`;
  return `github://repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/contents/${encoded}${query}`;
}
