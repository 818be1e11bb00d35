// A content key for JSON values: equal values give equal strings whatever their key order.

/**
 * Serializes `value` as JSON with object keys sorted at every depth, so two schemas with the same content share
 * one cache entry. Follows `JSON.stringify` otherwise. Throws a TypeError on cycles and BigInt.
 */
export function toCanonicalJson(value: unknown): string {
  return JSON.stringify(sortedCopy(value, []));
}

function sortedCopy(value: unknown, ancestors: object[]): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.includes(value))
    throw new TypeError('toCanonicalJson expected acyclic JSON, received a cycle');
  ancestors.push(value);
  try {
    if (Array.isArray(value)) return value.map((item: unknown) => sortedCopy(item, ancestors));
    const source = value as Record<string, unknown>;
    // fromEntries defines own properties, so a "__proto__" key stays data and never touches the prototype.
    return Object.fromEntries(
      Object.keys(source)
        .sort()
        .map((key) => [key, sortedCopy(source[key], ancestors)]),
    );
  } finally {
    ancestors.pop();
  }
}
