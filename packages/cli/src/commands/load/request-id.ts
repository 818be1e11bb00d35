// The decimal text of the wire engines' request ids, built without V8's number-to-string cache: the
// cache (old space, thousands of entries) keeps each id's string alive until a later id takes its
// slot, past two scavenges, so every request's id was promoted and freed only by a mark-compact.

/** "000" to "999": the last three digits of an id, made once. */
const LOW = Array.from({ length: 1000 }, (_, index) => String(index).padStart(3, '0'));

/** The digits before the last three, for the latest thousand seen (the ids rise by one). */
let highId = -1;
let highText = '';

/**
 * The text `String(id)` gives. For a non-negative safe integer, the digits above the last three come
 * from `String` once per thousand ids and the last three from a table; anything else is `String`'s.
 */
export function decimalOf(id: number): string {
  if (!Number.isSafeInteger(id) || id < 0) return String(id);
  if (id < 1000) return String(id);
  const high = Math.floor(id / 1000);
  if (high !== highId) {
    highId = high;
    highText = String(high);
  }
  return highText + LOW[id - high * 1000]!;
}
