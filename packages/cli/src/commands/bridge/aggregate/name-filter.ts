// `--allow` and `--deny`: which aggregate names the bridge serves, as glob-like patterns, matched
// without a regular expression (a pattern comes from the command line: no backtracking blow-up).

/**
 * Whether `pattern` matches the whole of `name`: `*` any run of characters (none included), `?`
 * one character, every other character itself (case-sensitive). `github__*` is every tool of the
 * server "github", `*__delete_*` every delete tool of any server. The classic wildcard walk that
 * remembers only the last `*`: at most (pattern length x name length) steps.
 */
export function matchesPattern(pattern: string, name: string): boolean {
  let at = 0;
  let from = 0;
  let star = -1;
  let starAt = 0;
  while (at < name.length) {
    if (from < pattern.length && (pattern[from] === '?' || pattern[from] === name[at])) {
      at++;
      from++;
    } else if (from < pattern.length && pattern[from] === '*') {
      star = from++;
      starAt = at;
    } else if (star >= 0) {
      from = star + 1;
      at = ++starAt;
    } else return false;
  }
  while (from < pattern.length && pattern[from] === '*') from++;
  return from === pattern.length;
}

/**
 * Whether an aggregate name is served: with `allow` patterns, only a name one of them matches; a
 * name any `deny` pattern matches never (deny wins over allow). No patterns: every name.
 */
export function createNameFilter(
  allow: readonly string[],
  deny: readonly string[],
): (name: string) => boolean {
  return (name) =>
    (allow.length === 0 || allow.some((pattern) => matchesPattern(pattern, name))) &&
    !deny.some((pattern) => matchesPattern(pattern, name));
}
