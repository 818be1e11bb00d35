// A content key for JSON values: equal values give equal strings whatever their key order. Written
// with an explicit stack, since the values (tool arguments, schemas) may come from a peer (issue 21).

/** What is left to write: literal text, a value to serialize, or the end of an object or array. */
type Task = string | { value: unknown } | { leave: object };

/**
 * Serializes `value` as JSON with object keys sorted at every depth, so two schemas with the same content share
 * one cache entry. Follows `JSON.stringify` otherwise (`toJSON`, dropped `undefined` members, `null` for
 * non-finite numbers), at any depth: nothing recurses. Throws a TypeError on cycles and BigInt.
 */
export function toCanonicalJson(value: unknown): string {
  const top = toJsonValue(value, '');
  if (isOmitted(top)) return JSON.stringify(top);
  const out: string[] = [];
  const ancestors = new Set<object>();
  const stack: Task[] = [{ value: top }];
  for (let task = stack.pop(); task !== undefined; task = stack.pop()) {
    if (typeof task === 'string') out.push(task);
    else if ('leave' in task) ancestors.delete(task.leave);
    else if (typeof task.value !== 'object' || task.value === null) out.push(primitiveJson(task.value));
    else {
      const node = task.value;
      if (ancestors.has(node)) throw new TypeError('toCanonicalJson expected acyclic JSON, received a cycle');
      ancestors.add(node);
      const tasks = Array.isArray(node) ? arrayTasks(node) : objectTasks(node as Record<string, unknown>);
      tasks.push({ leave: node });
      for (let index = tasks.length - 1; index >= 0; index -= 1) stack.push(tasks[index]!);
    }
  }
  return out.join('');
}

function arrayTasks(array: readonly unknown[]): Task[] {
  const tasks: Task[] = ['['];
  for (let index = 0; index < array.length; index += 1) {
    if (index > 0) tasks.push(',');
    const item = toJsonValue(array[index], String(index));
    tasks.push(isOmitted(item) ? 'null' : { value: item });
  }
  tasks.push(']');
  return tasks;
}

function objectTasks(object: Record<string, unknown>): Task[] {
  const tasks: Task[] = ['{'];
  for (const key of sortedKeys(object)) {
    const member = toJsonValue(object[key], key);
    if (isOmitted(member)) continue;
    tasks.push(`${tasks.length > 1 ? ',' : ''}${JSON.stringify(key)}:`, { value: member });
  }
  tasks.push('}');
  return tasks;
}

/**
 * The keys sorted, in the order an object built from them in that order lists them: integer-like keys
 * first in numeric order, then the rest sorted (what the sorted copy JSON.stringify used to see gave).
 */
function sortedKeys(object: Record<string, unknown>): string[] {
  return Object.keys(
    Object.fromEntries(
      Object.keys(object)
        .sort()
        .map((key) => [key, true]),
    ),
  );
}

/** `value` as JSON.stringify sees it: after `toJSON`, boxed primitives unboxed. */
function toJsonValue(value: unknown, key: string): unknown {
  let seen = value;
  if (
    typeof seen === 'object' &&
    seen !== null &&
    typeof (seen as { toJSON?: unknown }).toJSON === 'function'
  )
    seen = (seen as { toJSON: (key: string) => unknown }).toJSON(key);
  if (seen instanceof Number || seen instanceof String || seen instanceof Boolean) return seen.valueOf();
  return seen;
}

/** What JSON.stringify leaves out of objects and writes as `null` in arrays. */
function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function primitiveJson(value: unknown): string {
  // JSON.stringify throws the TypeError for BigInt and writes null for non-finite numbers.
  return JSON.stringify(value) ?? 'null';
}
