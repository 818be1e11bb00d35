// `--allow` and `--deny`: which aggregate names the bridge serves, as glob-like patterns.

/**
 * A pattern matches a whole aggregate name: `*` any run of characters (none included), `?` one
 * character, every other character itself (case-sensitive). `github__*` is every GitHub-like
 * tool, `*__delete_*` every delete tool of any server.
 */
export function toPatternRegExp(pattern: string): RegExp {
  let source = '';
  for (const char of pattern) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'su');
}

/**
 * Whether an aggregate name is served: with `allow` patterns, only a name one of them matches; a
 * name any `deny` pattern matches never (deny wins over allow). No patterns: every name.
 */
export function createNameFilter(
  allow: readonly string[],
  deny: readonly string[],
): (name: string) => boolean {
  const allowed = allow.map(toPatternRegExp);
  const denied = deny.map(toPatternRegExp);
  return (name) =>
    (allowed.length === 0 || allowed.some((pattern) => pattern.test(name))) &&
    !denied.some((pattern) => pattern.test(name));
}
