// The depth cap on JSON from a peer or a transcript file: what nests deeper than MAX_JSON_DEPTH is
// replaced by DEPTH_MARKER before our walkers (redaction, lint, report, replay, printing) see it,
// so none of them can run out of stack. Both functions here walk with an explicit stack.

/** The deepest nesting of objects and arrays kept: the value itself is level 1 (issue 21). */
export const MAX_JSON_DEPTH = 1000;

/** What an object or array nested deeper than MAX_JSON_DEPTH becomes. */
export const DEPTH_MARKER = `[mcpwire: cut, nested deeper than ${MAX_JSON_DEPTH} levels]`;

/** Options of {@link capDepth}. */
export interface CapOptions {
  /** The deepest level kept (default MAX_JSON_DEPTH). */
  maxDepth?: number;
  /**
   * The JSON text the value was parsed from, when at hand: text shorter than two characters per
   * level cannot nest deeper than the cap, so the walk is skipped.
   */
  text?: string;
}

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

/** True when `value` has an object or array nested deeper than `maxDepth` levels. */
export function isDeeperThan(value: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  if (!isContainer(value)) return false;
  const stack: Array<[Container, number]> = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, level] = top;
    if (level > maxDepth) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node))
      if (isContainer(child)) stack.push([child, level + 1]);
  }
  return false;
}

/**
 * `value` with every object or array deeper than `maxDepth` levels replaced by DEPTH_MARKER.
 * Returns `value` itself (no copy) when nothing is that deep; otherwise a copy (`value` is never
 * changed), its keys in their order, a `__proto__` key kept as an own member as JSON.parse makes it.
 */
export function capDepth<T>(value: T, options: CapOptions = {}): T {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  if (options.text !== undefined && options.text.length <= 2 * maxDepth) return value;
  if (!isDeeperThan(value, maxDepth)) return value;
  const root = emptyLike(value as Container);
  const stack: Array<[Container, Container, number]> = [[value as Container, root, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [source, target, level] = top;
    for (const key of Object.keys(source)) {
      const child = (source as Record<string, unknown>)[key];
      let copy: unknown = child;
      if (isContainer(child)) {
        if (level + 1 > maxDepth) copy = DEPTH_MARKER;
        else {
          copy = emptyLike(child);
          stack.push([child, copy as Container, level + 1]);
        }
      }
      Object.defineProperty(target, key, {
        value: copy,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return root as T;
}

function emptyLike(value: Container): Container {
  return Array.isArray(value) ? [] : {};
}

/**
 * JSON.stringify of a value from a peer, cut at MAX_JSON_DEPTH first: JSON.stringify recurses and
 * throws a RangeError some thousands of levels down (issue 21).
 */
export function toCappedJson(value: unknown, space?: number): string {
  return JSON.stringify(capDepth(value), null, space);
}
