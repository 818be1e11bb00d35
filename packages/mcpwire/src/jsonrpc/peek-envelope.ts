// The id and kind of a JSON-RPC message read from the first bytes of its text, for a message too large
// to parse: a scan of the top-level object's keys, one loop, no recursion, never throws.

import type { RequestId } from './message.ts';

/** What the head of a message says: its id when read, and whether it is a request or a response. */
export interface EnvelopeHead {
  id?: RequestId;
  /** `request` when a top-level "method" key was seen, `response` for "result" or "error". */
  kind: 'request' | 'response' | 'unknown';
}

/**
 * Reads the top-level keys of the JSON object that `head` starts (a prefix of a message's text) up
 * to where it is cut: an "id" whose whole value is in `head` and is a string or a safe integer, and
 * the kind. Nested values are skipped by counting brackets outside strings. Anything that is not a
 * JSON object's start yields `{ kind: 'unknown' }`. Linear in `head`'s length.
 */
export function peekEnvelope(head: string): EnvelopeHead {
  const found: EnvelopeHead = { kind: 'unknown' };
  let at = skipSpace(head, 0);
  if (head[at] !== '{') return found;
  at++;
  for (;;) {
    at = skipSpace(head, at);
    if (head[at] !== '"') return found;
    const keyEnd = stringEnd(head, at);
    if (keyEnd === -1) return found;
    const key = parseJson(head.slice(at, keyEnd));
    at = skipSpace(head, keyEnd);
    if (head[at] !== ':') return found;
    at = skipSpace(head, at + 1);
    if (key === 'method') found.kind = 'request';
    else if ((key === 'result' || key === 'error') && found.kind === 'unknown') found.kind = 'response';
    const valueEnd = valueEndOf(head, at);
    if (valueEnd === -1) return found;
    if (key === 'id') {
      const id = parseJson(head.slice(at, valueEnd));
      if (typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) found.id = id;
    }
    at = skipSpace(head, valueEnd);
    if (head[at] !== ',') return found;
    at++;
  }
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++;
  return at;
}

/** The index after the string that starts at `at` (a `"`), or -1 when the text ends inside it. */
function stringEnd(text: string, at: number): number {
  for (let index = at + 1; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') index++;
    else if (char === '"') return index + 1;
  }
  return -1;
}

/** The index after the value that starts at `at`, or -1 when the text ends inside it. */
function valueEndOf(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return stringEnd(text, at);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let index = at; index < text.length; index++) {
      const char = text[index];
      if (char === '"') {
        const end = stringEnd(text, index);
        if (end === -1) return -1;
        index = end - 1;
      } else if (char === '{' || char === '[') depth++;
      else if (char === '}' || char === ']') {
        depth--;
        if (depth === 0) return index + 1;
      }
    }
    return -1;
  }
  // A number or a literal: it ends at a delimiter, which must be in the text (else it may be cut).
  for (let index = at; index < text.length; index++) {
    if (',}] \t\r\n'.includes(text[index]!)) return index === at ? -1 : index;
  }
  return -1;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
