// How every validation failure reads: one line, "<instance path>: <message>", the path as a JSON Pointer.

/** A segment of a Standard Schema issue path: a bare key, or an object carrying it. */
export type PathSegment = PropertyKey | { readonly key: PropertyKey };

/** Renders a path as an RFC 6901 JSON Pointer (`['a', 0]` -> `/a/0`, `[]` -> ``), escaping `~` and `/`. */
export function toJsonPointer(path: readonly PathSegment[]): string {
  let pointer = '';
  for (const segment of path) {
    const key = typeof segment === 'object' ? segment.key : segment;
    pointer += '/' + String(key).replaceAll('~', '~0').replaceAll('/', '~1');
  }
  return pointer;
}

/** Formats one failure as `<pointer>: <message>`; the empty pointer (the whole value) reads `(root)`. */
export function formatErrorLine(pointer: string, message: string): string {
  return `${pointer === '' ? '(root)' : pointer}: ${message}`;
}
