// Loads one revision's official schema.json, patches its known integer/number mismatches in memory, and derives
// from its definitions which definition each method, result and error code must match.

import { readFileSync } from 'node:fs';

/** Where the official schemas live: `spec/<revision>/schema.json` in the repository (see spec/README.md). */
const SPEC_DIR = new URL('../../spec/', import.meta.url);

type SchemaNode = Record<string, unknown>;

/** A loaded revision: its patched document and the facts derived from it. */
export interface RevisionSchema {
  readonly revision: string;
  /** The `$id` the document was given, so definitions can be referenced as `<id>#/<definitionsKey>/<name>`. */
  readonly id: string;
  readonly definitionsKey: 'definitions' | '$defs';
  readonly document: SchemaNode;
  readonly definitions: Readonly<Record<string, SchemaNode>>;
  /** Method -> the definition of its request (or notification). */
  readonly requests: ReadonlyMap<string, string>;
  readonly notifications: ReadonlyMap<string, string>;
  /** The methods each side may send, from the `ClientRequest`/`ServerRequest`/... unions. */
  readonly senders: Record<
    'client' | 'server',
    { requests: ReadonlySet<string>; notifications: ReadonlySet<string> }
  >;
  /** Error code -> a definition of the whole error response with that code (e.g. URLElicitationRequiredError). */
  readonly errorsByCode: ReadonlyMap<number, string>;
  readonly envelope: {
    request: string;
    notification: string;
    result: string;
    error: string;
    batch?: { calls: string; responses: string };
  };
  /** The definitions a result of `method` may match (several when it may be input_required or a task). */
  resultsOf(method: string, isTaskAugmented: boolean): string[];
}

const loaded = new Map<string, RevisionSchema>();

/** The patched definitions of `revision`'s schema.json, e.g. for checking facts about a revision in tests. */
export function loadSchemaDefinitions(revision: string): Readonly<Record<string, SchemaNode>> {
  return loadRevisionSchema(revision).definitions;
}

/** Loads (once) and analyses `revision`'s schema. Throws if the repository has no schema for it. */
export function loadRevisionSchema(revision: string): RevisionSchema {
  let schema = loaded.get(revision);
  if (schema === undefined) {
    schema = analyse(revision, readDocument(revision));
    loaded.set(revision, schema);
  }
  return schema;
}

function readDocument(revision: string): SchemaNode {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(revision)) throw new Error(`"${revision}" is not a protocol revision`);
  const url = new URL(`${revision}/schema.json`, SPEC_DIR);
  let text: string;
  try {
    text = readFileSync(url, 'utf8');
  } catch (error) {
    throw new Error(`No official schema for revision ${revision} at ${url.pathname}`, { cause: error });
  }
  return JSON.parse(text) as SchemaNode;
}

/**
 * schema.json is generated from schema.ts with `integer` as the default number type, so some fields that
 * schema.ts types as `number` come out `integer` (reference note, section 0). These are relaxed to `number`
 * in the in-memory copy; the files are never changed. Only fields whose schema.ts type is `number`:
 */
const NUMBER_PROPERTIES = new Set(['ttl', 'pollInterval', 'maxTokens', 'size', 'total']);
/** ...and every integer inside these: elicitation answers (`string | number | boolean`) and 2026's JSONValue. */
const NUMBER_DEFINITIONS = ['ElicitResult', 'JSONValue'];

function relaxIntegers(definitions: Record<string, SchemaNode>): void {
  const visit = (node: unknown, everywhere: boolean): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, everywhere));
    if (!isNode(node)) return;
    if (everywhere) retype(node);
    const properties = node.properties;
    if (isNode(properties)) {
      for (const [name, property] of Object.entries(properties))
        if (NUMBER_PROPERTIES.has(name) && isNode(property)) retype(property);
    }
    for (const child of Object.values(node)) visit(child, everywhere);
  };
  for (const [name, definition] of Object.entries(definitions))
    visit(definition, NUMBER_DEFINITIONS.includes(name));
}

function retype(node: SchemaNode): void {
  if (node.type === 'integer') node.type = 'number';
  else if (Array.isArray(node.type))
    node.type = node.type.map((type: unknown) => (type === 'integer' ? 'number' : type));
}

function analyse(revision: string, document: SchemaNode): RevisionSchema {
  const definitionsKey = '$defs' in document ? '$defs' : 'definitions';
  const definitions = document[definitionsKey] as Record<string, SchemaNode>;
  relaxIntegers(definitions);
  const id = `https://mcpwire.test/spec/${revision}/schema.json`;
  document.$id = id;

  const requests = new Map<string, string>();
  const notifications = new Map<string, string>();
  const errorsByCode = new Map<number, string>();
  for (const [name, definition] of Object.entries(definitions)) {
    const method = methodOf(definition);
    if (method !== undefined && name.endsWith('Request')) requests.set(method, name);
    if (method !== undefined && name.endsWith('Notification')) notifications.set(method, name);
    const code = errorCodeOf(definition);
    if (code !== undefined) errorsByCode.set(code, name);
  }
  const union = (name: string): Set<string> => new Set(unionMethods(definitions, definitions[name]));
  const has = (name: string): boolean => name in definitions;

  return {
    revision,
    id,
    definitionsKey,
    document,
    definitions,
    requests,
    notifications,
    senders: {
      client: { requests: union('ClientRequest'), notifications: union('ClientNotification') },
      server: { requests: union('ServerRequest'), notifications: union('ServerNotification') },
    },
    errorsByCode,
    envelope: {
      request: 'JSONRPCRequest',
      notification: 'JSONRPCNotification',
      result: has('JSONRPCResultResponse') ? 'JSONRPCResultResponse' : 'JSONRPCResponse',
      error: has('JSONRPCErrorResponse') ? 'JSONRPCErrorResponse' : 'JSONRPCError',
      ...(has('JSONRPCBatchRequest') && has('JSONRPCBatchResponse')
        ? { batch: { calls: 'JSONRPCBatchRequest', responses: 'JSONRPCBatchResponse' } }
        : {}),
    },
    resultsOf(method, isTaskAugmented) {
      const request = requests.get(method);
      if (request === undefined) return ['Result'];
      const named = request.replace(/Request$/, 'Result');
      // 2026-07-28 spells out each method's response as `<X>ResultResponse`, listing InputRequiredResult where allowed.
      const response = definitions[`${named}Response`];
      if (response !== undefined && isNode(response.properties)) return refsOf(response.properties.result);
      const own = has(named) ? named : has('EmptyResult') ? 'EmptyResult' : 'Result';
      return isTaskAugmented && has('CreateTaskResult') ? [own, 'CreateTaskResult'] : [own];
    },
  };
}

/** The `method` const of a request or notification definition. */
function methodOf(definition: SchemaNode | undefined): string | undefined {
  const properties = definition?.properties;
  const method = isNode(properties) ? properties.method : undefined;
  return isNode(method) && typeof method.const === 'string' ? method.const : undefined;
}

/** The `error.code` const of an error response definition (a plain object or an allOf of parts). */
function errorCodeOf(definition: SchemaNode): number | undefined {
  const properties = definition.properties;
  const error = isNode(properties) ? properties.error : undefined;
  if (!isNode(error)) return undefined;
  const parts = Array.isArray(error.allOf) ? error.allOf : [error];
  for (const part of parts) {
    const code = isNode(part) && isNode(part.properties) ? part.properties.code : undefined;
    if (isNode(code) && typeof code.const === 'number') return code.const;
  }
  return undefined;
}

/** The methods of a union such as `ClientRequest`, which the generator collapses to its member when it has one. */
function unionMethods(definitions: Record<string, SchemaNode>, union: SchemaNode | undefined): string[] {
  if (union === undefined) return [];
  const own = methodOf(union);
  if (own !== undefined) return [own];
  return refsOf(union).flatMap((name) => {
    const method = methodOf(definitions[name]);
    return method === undefined ? [] : [method];
  });
}

/** The definition names a node refers to: its `$ref`, or the `$ref`s of its `anyOf`/`oneOf`. */
function refsOf(node: unknown): string[] {
  if (!isNode(node)) return [];
  if (typeof node.$ref === 'string') return [node.$ref.slice(node.$ref.lastIndexOf('/') + 1)];
  const members = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : [];
  return members.flatMap(refsOf);
}

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
