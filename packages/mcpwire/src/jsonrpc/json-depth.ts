// How deep a JSON value nests, measured with an explicit stack: values from a peer can nest as deep
// as JSON.parse allows, far beyond what a recursive walk survives (issue 21).

/**
 * True when `value` has an object or array nested deeper than `maxDepth` levels (the value itself
 * is level 1). Walks with an explicit stack and stops at the first level past `maxDepth`, so a
 * cyclic value ends too.
 */
export function isDeeperThan(value: unknown, maxDepth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<[object, number]> = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, level] = top;
    if (level > maxDepth) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node))
      if (typeof child === 'object' && child !== null) stack.push([child as object, level + 1]);
  }
  return false;
}
