// What is wrong with a tool name that a name pattern refuses, said so that the server's author knows
// what to change: the characters refused, the length over the limit, or the first character.
// Shared by spec/tool-name and compat/tool-name.

/** Why a name fails a pattern, and what to change. */
export interface NameProblem {
  message: string;
  fix: string;
}

/** The longest name any pattern here is probed for. */
const MAX_PROBE = 1000;

/**
 * Why `pattern` (a whole-name pattern like `^[a-zA-Z0-9_-]{1,64}$`) refuses `name`. A character is
 * refused when `a` followed by it fails; the limit is the longest run of `a` that passes.
 */
export function describeNameProblem(name: string, pattern: RegExp): NameProblem {
  const refused = [...new Set(Array.from(name))].filter((char) => !pattern.test(`a${char}`));
  if (refused.length > 0) {
    const list = refused.map((char) => JSON.stringify(char)).join(', ');
    return {
      message: `${list} ${refused.length === 1 ? 'is' : 'are'} not allowed`,
      fix: `rename the tool: replace ${list} (with "_", say)`,
    };
  }
  if (name === '') return { message: 'the name is empty', fix: 'give the tool a name' };
  const max = maxLength(pattern);
  if (name.length > max)
    return {
      message: `it is ${name.length} characters long; at most ${max}`,
      fix: `shorten the name to at most ${max} characters`,
    };
  return {
    message: `it may not start with ${JSON.stringify(Array.from(name)[0])}`,
    fix: 'start the name with a letter or "_"',
  };
}

function maxLength(pattern: RegExp): number {
  let length = 1;
  while (length < MAX_PROBE && pattern.test('a'.repeat(length + 1))) length += 1;
  return length;
}
