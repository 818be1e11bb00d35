// `load` over stdio reads one answer per request, and under load most servers answer the same call
// with the same bytes but for the id. This remembers the last result answer as the text before and
// after its id, so a line that is that text around another id is settled without a parse (matched as
// bytes, before it is decoded): its result
// is the one already parsed (the consumers only read it). Any other line is parsed as before.
//
// A template is kept only once proven: the id's text occurs once in the line, and swapping two other
// ids into that place parses to a message with those ids and the same result text, so the place is
// the top-level id and nothing else. Answers that differ every time (an echo of `{{i}}`) miss the
// template at its first bytes; after MAX_MISSED_TEMPLATES templates that missed at once (or answers
// that proved none), none is made. Only an answer counts as a miss (the engine says so once it has
// parsed the line): a notification or request between answers leaves the template as it is.

import { Buffer } from 'node:buffer';
import type { JsonObject } from 'mcpwire';

/** Templates that may miss on their first use (or fail their proof) before the cache gives up for this connection. */
const MAX_MISSED_TEMPLATES = 4;

/** Misses in a row after which a template that matched before is dropped (the answers changed). */
const MAX_MISS_STREAK = 64;

/** The longest id text taken from a line: ids are safe integers, at most 16 digits. */
const MAX_ID_DIGITS = 16;

const ZERO = 48;
const NINE = 57;
const EMPTY = Buffer.alloc(0);

export class SameAnswer {
  /** The template as UTF-8 bytes: lines are matched before they are decoded (no string per answer). */
  #prefix = EMPTY;
  #suffix = EMPTY;
  #result: JsonObject | undefined;
  /** Whether the current template has matched a line since it was made. */
  #hasMatched = false;
  #missStreak = 0;
  #missedTemplates = 0;

  /**
   * The id of the line `bytes[start, end)` when it is the remembered answer around another id, else
   * -1; a -1 changes nothing until the engine has parsed the line and calls `countMiss` for an answer.
   */
  idOf(bytes: Buffer, start: number, end: number): number {
    if (this.#result === undefined) return -1;
    const prefix = this.#prefix;
    const suffix = this.#suffix;
    const idStart = start + prefix.length;
    const idEnd = end - suffix.length;
    const digits = idEnd - idStart;
    // JSON numbers have no leading zero: a line with "0123" is parsed (and refused) as before.
    if (digits < 1 || digits > MAX_ID_DIGITS || (digits > 1 && bytes[idStart] === ZERO)) return -1;
    // A loop over bytes, which the compiler keeps inline, where the string builtins were calls.
    for (let index = 0; index < prefix.length; index++) if (bytes[start + index] !== prefix[index]) return -1;
    for (let index = 0; index < suffix.length; index++) if (bytes[idEnd + index] !== suffix[index]) return -1;
    let id = 0;
    for (let index = idStart; index < idEnd; index++) {
      const code = bytes[index]!;
      if (code < ZERO || code > NINE) return -1;
      id = id * 10 + (code - ZERO);
    }
    this.#hasMatched = true;
    this.#missStreak = 0;
    return id;
  }

  /** The remembered answer's result (after `idOf` returned an id). */
  get result(): JsonObject {
    return this.#result!;
  }

  /**
   * Offers `text`, a result answer the engine parsed and took, whose id is `id`: it becomes the
   * template when there is none and it proves one.
   */
  remember(text: string, id: number, result: JsonObject): void {
    if (this.#result !== undefined || this.#missedTemplates >= MAX_MISSED_TEMPLATES) return;
    const idText = String(id);
    const at = text.indexOf(idText);
    // An answer that proves no template counts as one that missed: its proof (three parses) is not
    // tried again on every later answer.
    if (at === -1 || text.indexOf(idText, at + 1) !== -1) {
      this.#missedTemplates++;
      return;
    }
    const prefix = text.slice(0, at);
    const suffix = text.slice(at + idText.length);
    if (!provesId(prefix, suffix, text)) {
      this.#missedTemplates++;
      return;
    }
    this.#prefix = Buffer.from(prefix, 'utf8');
    this.#suffix = Buffer.from(suffix, 'utf8');
    this.#result = result;
    this.#hasMatched = false;
    this.#missStreak = 0;
  }

  /**
   * Counts an answer of the engine's that `idOf` did not match (not a notification, not a request of
   * the server's, which say nothing of whether the answers changed).
   */
  countMiss(): void {
    if (this.#result === undefined) return;
    if (!this.#hasMatched) {
      // Answers that differ every time: forget it, and after a few such templates make none.
      this.#missedTemplates++;
      this.#result = undefined;
    } else if (++this.#missStreak >= MAX_MISS_STREAK) this.#result = undefined;
  }
}

/**
 * True when the place between `prefix` and `suffix` is the top-level id: with other ids there, the
 * text parses to messages with those ids whose text is otherwise `text`'s (the same result).
 */
function provesId(prefix: string, suffix: string, text: string): boolean {
  const same = JSON.stringify(withoutId(parse(text)));
  for (const probe of [1, 22]) {
    const value = parse(prefix + probe + suffix);
    if (value === undefined || value.id !== probe || JSON.stringify(withoutId(value)) !== same) return false;
  }
  return true;
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function withoutId(value: Record<string, unknown> | undefined): unknown {
  if (value === undefined) return undefined;
  const { id: _id, ...rest } = value;
  return rest;
}
