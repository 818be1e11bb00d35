// A `--call` operand of `mcpwire check`: `'<tool> [key=value ...]'` in one string, split into words as
// a POSIX shell splits them (single and double quotes, backslash), so a value may hold spaces. Pure.

import { UsageError } from '../exit-code.ts';

/** One `--call`: the tool to call and its `key=value` pairs, as `mcpwire call` takes them. */
export interface CallSpec {
  tool: string;
  pairs: string[];
}

/**
 * Parses `text` (`add a=2 "b=3"`, `search query='is:open bug'`): the first word is the tool, the rest
 * are `key=value` pairs (typed later by the tool's inputSchema). Throws UsageError for an empty
 * operand or an unterminated quote.
 */
export function parseCallSpec(text: string): CallSpec {
  const words = splitWords(text);
  const [tool, ...pairs] = words;
  if (tool === undefined || tool === '')
    throw new UsageError(`--call expects '<tool> [key=value ...]', received ${JSON.stringify(text)}`);
  return { tool, pairs };
}

/** `text` split at unquoted whitespace, quotes removed; a backslash outside single quotes escapes. */
function splitWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quote === "'" ? char === "'" : quote === '"' && char === '"') {
      quote = undefined;
    } else if (char === '\\' && quote !== "'" && i + 1 < text.length) {
      i += 1;
      word = (word ?? '') + text[i]!;
    } else if (quote !== undefined) {
      word = (word ?? '') + char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + char;
  }
  if (quote !== undefined)
    throw new UsageError(`--call ${JSON.stringify(text)}: the ${quote} quote is never closed`);
  if (word !== undefined) words.push(word);
  return words;
}
