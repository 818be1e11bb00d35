// One revision's official schema, ready to validate messages: patched for its known integer/number
// mismatches (in memory), analysed for which definition each method, result and error code must
// match, and compiled by Ajv lazily: the first use of a revision, then of each definition.
// The same approach as the repository's test-time wire check (test/support/wire-schema-load.ts).

import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { OFFICIAL_SCHEMAS } from './official-schemas.ts';

// ajv-formats is CommonJS: under NodeNext its default import is `module.exports`, which carries `.default`.
const addFormats = addFormatsModule.default;

type SchemaNode = Record<string, unknown>;

/** A revision's schema: what its definitions say about methods, and a validator per definition. */
export interface RevisionSchema {
  readonly revision: string;
  /** Method -> the definition of its request, or of its notification. */
  readonly requests: ReadonlyMap<string, string>;
  readonly notifications: ReadonlyMap<string, string>;
  /** The methods each side may send, from the ClientRequest/ServerRequest/... unions. */
  readonly senders: Record<
    'client' | 'server',
    { requests: ReadonlySet<string>; notifications: ReadonlySet<string> }
  >;
  /** Error code -> the definition of the whole error response with that code. */
  readonly errorsByCode: ReadonlyMap<number, string>;
  readonly envelope: { request: string; notification: string; result: string; error: string };
  /** The definitions a result of `method` may match (several when it may be input_required or a task). */
  resultsOf(method: string, isTaskAugmented: boolean): readonly string[];
  /** Validates `value` against definition `name`: the first few errors, empty when valid. */
  validate(name: string, value: unknown): readonly string[];
}

const loaded = new Map<string, RevisionSchema | undefined>();

/** What validate returns for a valid value (shared: nothing to allocate on the common path). */
const NO_ERRORS: readonly string[] = Object.freeze([]);

/** The schema of `revision`, analysed once; undefined when no official schema is bundled for it. */
export function loadRevisionSchema(revision: string): RevisionSchema | undefined {
  if (!loaded.has(revision)) {
    const document = Object.hasOwn(OFFICIAL_SCHEMAS, revision) ? OFFICIAL_SCHEMAS[revision] : undefined;
    loaded.set(
      revision,
      document === undefined ? undefined : analyse(revision, structuredClone(document) as SchemaNode),
    );
  }
  return loaded.get(revision);
}

/** The revisions that have a bundled schema. */
export function schemaRevisions(): string[] {
  return Object.keys(OFFICIAL_SCHEMAS);
}

/**
 * schema.json is generated from schema.ts with `integer` as the default number type, so some fields
 * schema.ts types as `number` come out `integer` (2025-11-25 checklist, section 0). They are relaxed
 * to `number`: these properties everywhere, and every integer inside these definitions.
 */
const NUMBER_PROPERTIES = new Set(['ttl', 'pollInterval', 'maxTokens', 'size', 'total']);
const NUMBER_DEFINITIONS = ['ElicitResult', 'JSONValue'];

function relaxIntegers(definitions: Record<string, SchemaNode>): void {
  const visit = (node: unknown, isEverywhere: boolean): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, isEverywhere));
    if (!isNode(node)) return;
    if (isEverywhere) retype(node);
    if (isNode(node.properties))
      for (const [name, property] of Object.entries(node.properties))
        if (NUMBER_PROPERTIES.has(name) && isNode(property)) retype(property);
    for (const child of Object.values(node)) visit(child, isEverywhere);
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
  const id = `https://mcpwire.dev/lint/spec/${revision}/schema.json`;
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
  const validators = new Map<string, ValidateFunction>();
  const plainResults = new Map<string, readonly string[]>();
  const taskResults = new Map<string, readonly string[]>();
  let engine: Ajv | Ajv2020 | undefined;
  const validatorOf = (name: string): ValidateFunction => {
    let check = validators.get(name);
    if (check === undefined) {
      if (engine === undefined) {
        const options = { strict: false, allErrors: true, logger: false as const };
        engine = definitionsKey === '$defs' ? new Ajv2020(options) : new Ajv(options);
        addFormats(engine);
        engine.addSchema(document);
      }
      check = engine.getSchema(`${id}#/${definitionsKey}/${name}`);
      if (check === undefined) throw new Error(`revision ${revision} has no definition "${name}"`);
      validators.set(name, check);
    }
    return check;
  };
  return {
    revision,
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
    },
    resultsOf(method, isTaskAugmented) {
      // Asked once per response: worked out once per method (and task augmentation).
      const cache = isTaskAugmented ? taskResults : plainResults;
      let names = cache.get(method);
      if (names === undefined) {
        names = resultDefinitions(definitions, { request: requests.get(method), isTaskAugmented });
        cache.set(method, names);
      }
      return names;
    },
    validate(name, value) {
      const check = validatorOf(name);
      if (check(value)) return NO_ERRORS;
      return (check.errors ?? [])
        .slice(0, 3)
        .map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`);
    },
  };
}

/** The definitions a result of `method` may match, read off the schema's definitions. */
function resultDefinitions(
  definitions: Record<string, SchemaNode>,
  call: { request: string | undefined; isTaskAugmented: boolean },
): readonly string[] {
  const { request } = call;
  if (request === undefined) return ['Result'];
  const has = (name: string): boolean => name in definitions;
  const named = request.replace(/Request$/, 'Result');
  // 2026-07-28 spells out each method's response as `<X>ResultResponse`, listing InputRequiredResult where allowed.
  const response = definitions[`${named}Response`];
  if (response !== undefined && isNode(response.properties)) return refsOf(response.properties.result);
  const own = has(named) ? named : has('EmptyResult') ? 'EmptyResult' : 'Result';
  return call.isTaskAugmented && has('CreateTaskResult') ? [own, 'CreateTaskResult'] : [own];
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
