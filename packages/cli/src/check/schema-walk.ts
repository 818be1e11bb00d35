// Walks untrusted JSON from a server with an explicit stack (never recursion): the subschemas of a
// JSON Schema, and every string of a definition (keys and values), each with its JSON Pointer.

/** The deepest subschema the rules look at: a tool schema nested deeper is reported, not walked. */
export const MAX_SCHEMA_DEPTH = 64;

/** One subschema: the object, where it is (a JSON Pointer from the schema's root), how deep. */
export interface SchemaNode {
  schema: Record<string, unknown>;
  pointer: string;
  /** The root is depth 0. */
  depth: number;
}

/** Keywords whose value is one subschema. */
const ONE = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
];
/** Keywords whose value is an array of subschemas. */
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to subschemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `pointer` with one more reference token, escaped as RFC 6901 says. */
export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/**
 * Every subschema of `root` (itself first, then in document order), down to `maxDepth` levels;
 * `isTooDeep` says a subschema below that was left out. Boolean subschemas are skipped.
 */
export function schemaNodes(
  root: unknown,
  maxDepth: number = MAX_SCHEMA_DEPTH,
): { nodes: SchemaNode[]; isTooDeep: boolean } {
  const nodes: SchemaNode[] = [];
  let isTooDeep = false;
  if (!isObject(root)) return { nodes, isTooDeep };
  const stack: SchemaNode[] = [{ schema: root, pointer: '', depth: 0 }];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    nodes.push(node);
    const children = childrenOf(node);
    if (children.length > 0 && node.depth + 1 > maxDepth) {
      isTooDeep = true;
      continue;
    }
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i]!);
  }
  return { nodes, isTooDeep };
}

function childrenOf({ schema, pointer, depth }: SchemaNode): SchemaNode[] {
  const children: SchemaNode[] = [];
  const add = (value: unknown, at: string): void => {
    if (isObject(value)) children.push({ schema: value, pointer: at, depth: depth + 1 });
  };
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    const at = childPointer(pointer, key);
    if (ONE.includes(key)) add(value, at);
    if (LIST.includes(key) && Array.isArray(value))
      value.forEach((item, i) => add(item, childPointer(at, i)));
    if (MAP.includes(key) && isObject(value))
      for (const name of Object.keys(value)) add(value[name], childPointer(at, name));
  }
  return children;
}

/** A string found in a definition: a key or a value, and where. */
export interface FoundText {
  text: string;
  /** JSON Pointer of the value, or of the member whose key this is. */
  pointer: string;
  isKey: boolean;
}

/** Every string in `value`, keys included, in document order (explicit stack: any depth, no recursion). */
export function textsOf(value: unknown): FoundText[] {
  const found: FoundText[] = [];
  type Item = { value: unknown; pointer: string } | FoundText;
  const stack: Item[] = [{ value, pointer: '' }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if ('text' in top) {
      found.push(top);
      continue;
    }
    const { value: node, pointer } = top;
    if (typeof node === 'string') found.push({ text: node, pointer, isKey: false });
    else if (Array.isArray(node))
      for (let i = node.length - 1; i >= 0; i -= 1)
        stack.push({ value: node[i], pointer: childPointer(pointer, i) });
    else if (isObject(node)) {
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i -= 1) {
        const at = childPointer(pointer, keys[i]!);
        stack.push({ value: node[keys[i]!], pointer: at });
        stack.push({ text: keys[i]!, pointer: at, isKey: true });
      }
    }
  }
  return found;
}
