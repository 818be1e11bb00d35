// Types of scripts/requirement-ids.mjs for the TypeScript tests that import it.

/** The area prefixes of the 2025-11-25 list (`BASE`, `LIFE`, ...). */
export const PREFIXES_2025: readonly string[];
/** The area prefixes of the 2026-07-28 list (`S26-BASE`, `S26-MRTR`, ...). */
export const PREFIXES_2026: readonly string[];
/** Matches one cited id; global, so use it with `matchAll`. */
export const ID_PATTERN: RegExp;
/** The document that defines the ids, relative to the repository root. */
export const REQUIREMENTS_FILE: string;

/** Every id cited under `root` (default: this repository), mapped to the first `file:line` citing it. */
export function findCitedIds(root?: string): Map<string, string>;

/** One definition in docs/requirements.md. */
export interface Definition {
  id: string;
  /** 1-based line number in the document. */
  line: number;
  /** The line after the bold id. */
  text: string;
}

/** The definitions in a requirements document's text, in order, duplicates kept. */
export function parseDefinitions(markdown: string): Definition[];
