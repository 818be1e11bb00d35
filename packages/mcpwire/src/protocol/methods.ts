// THE core method table: every MCP method once, with its direction, gate, eras and parameter shape
// (its params and result types: method-types.ts, key for key). MethodTable (method-table.ts) opens it
// to extensions; the inbound check (inbound-check.ts) and both sides' dispatch read it.

/** Which side may send a method. */
export type Sender = 'client' | 'server' | 'both';

/**
 * A capability path: the side that declares it, and the keys leading to it (e.g. resources.subscribe).
 * `receiver` is for methods either side may send (tasks): the side that receives the request declares it.
 */
export interface CapabilityGate {
  side: 'client' | 'server' | 'receiver';
  path: readonly [string, ...string[]];
}

/** A shallow parameter rule: a type name, with `?` for optional. `id` is a string or integer. */
export type ParamRule =
  | 'string'
  | 'number'
  | 'boolean'
  | 'object'
  | 'array'
  | 'id'
  | 'any'
  | `${'string' | 'number' | 'boolean' | 'object' | 'array' | 'id'}?`;

/** One row of the table. */
export interface MethodSpec {
  kind: 'request' | 'notification';
  sender: Sender;
  /** The capability that must have been negotiated before this method may be used. */
  gate?: CapabilityGate;
  /**
   * The gate in the stateless era, where it differs from `gate`: a method the 2026-07-28 revision
   * moved into an extension is gated by the receiver's `extensions.<id>` (S26-TASK-1), not by the
   * core capability the handshake era used.
   */
  statelessGate?: CapabilityGate;
  /** First protocol revision with this method. */
  since: string;
  /** Last revision with it (for methods the stateless revision removed). */
  until?: string;
  /** Shallow shape of `params` (unknown extra keys are allowed: the spec's objects are open). */
  params?: Readonly<Record<string, ParamRule>>;
  /** Results may be paginated with `cursor`/`nextCursor`. */
  isPaginated?: boolean;
  /** Stateless-era results carry caching hints of this family (S26-CACHE-1). */
  cache?: 'discover' | 'lists' | 'read';
  /** The handler may ask the client for input: multi-round-trip requests in the stateless era (S26-MRTR). */
  hasInputRounds?: boolean;
  /** The result closes a stream the request opened (listen): sent as the handler made it, undecorated. */
  isStreamed?: boolean;
}

const LEGACY_LAST = '2025-11-25';
const FIRST = '2024-11-05';
const MODERN = '2026-07-28';

const server = (...path: [string, ...string[]]): CapabilityGate => ({ side: 'server', path });
const client = (...path: [string, ...string[]]): CapabilityGate => ({ side: 'client', path });
const receiver = (...path: [string, ...string[]]): CapabilityGate => ({ side: 'receiver', path });
/** The stateless era's home of the tasks methods: the server's tasks extension (S26-TASK-1). */
const TASKS_EXTENSION = server('extensions', 'io.modelcontextprotocol/tasks');

/** Every method of revisions 2024-11-05 .. 2026-07-28. */
export const METHODS = {
  initialize: {
    kind: 'request',
    sender: 'client',
    since: FIRST,
    until: LEGACY_LAST,
    params: { protocolVersion: 'string', capabilities: 'object', clientInfo: 'object' },
  },
  ping: { kind: 'request', sender: 'both', since: FIRST, until: LEGACY_LAST },
  'server/discover': { kind: 'request', sender: 'client', since: MODERN, cache: 'discover' },
  'tools/list': {
    kind: 'request',
    sender: 'client',
    gate: server('tools'),
    since: FIRST,
    params: { cursor: 'string?' },
    isPaginated: true,
    cache: 'lists',
  },
  'tools/call': {
    kind: 'request',
    sender: 'client',
    gate: server('tools'),
    since: FIRST,
    params: { name: 'string', arguments: 'object?' },
    hasInputRounds: true,
  },
  'resources/list': {
    kind: 'request',
    sender: 'client',
    gate: server('resources'),
    since: FIRST,
    params: { cursor: 'string?' },
    isPaginated: true,
    cache: 'lists',
  },
  'resources/templates/list': {
    kind: 'request',
    sender: 'client',
    gate: server('resources'),
    since: FIRST,
    params: { cursor: 'string?' },
    isPaginated: true,
    cache: 'lists',
  },
  'resources/read': {
    kind: 'request',
    sender: 'client',
    gate: server('resources'),
    since: FIRST,
    params: { uri: 'string' },
    cache: 'read',
    hasInputRounds: true,
  },
  'resources/subscribe': {
    kind: 'request',
    sender: 'client',
    gate: server('resources', 'subscribe'),
    since: FIRST,
    until: LEGACY_LAST,
    params: { uri: 'string' },
  },
  'resources/unsubscribe': {
    kind: 'request',
    sender: 'client',
    gate: server('resources', 'subscribe'),
    since: FIRST,
    until: LEGACY_LAST,
    params: { uri: 'string' },
  },
  'prompts/list': {
    kind: 'request',
    sender: 'client',
    gate: server('prompts'),
    since: FIRST,
    params: { cursor: 'string?' },
    isPaginated: true,
    cache: 'lists',
  },
  'prompts/get': {
    kind: 'request',
    sender: 'client',
    gate: server('prompts'),
    since: FIRST,
    params: { name: 'string', arguments: 'object?' },
    hasInputRounds: true,
  },
  // 2024-11-05 had no `completions` capability; the gate applies from 2025-03-26 (see isGateRequired).
  'completion/complete': {
    kind: 'request',
    sender: 'client',
    gate: server('completions'),
    since: FIRST,
    params: { ref: 'object', argument: 'object', context: 'object?' },
  },
  'logging/setLevel': {
    kind: 'request',
    sender: 'client',
    gate: server('logging'),
    since: FIRST,
    until: LEGACY_LAST,
    params: { level: 'string' },
  },
  'subscriptions/listen': {
    kind: 'request',
    sender: 'client',
    since: MODERN,
    params: { notifications: 'object' },
    isStreamed: true,
  },
  'sampling/createMessage': {
    kind: 'request',
    sender: 'server',
    gate: client('sampling'),
    since: FIRST,
    until: LEGACY_LAST,
    params: { messages: 'array', maxTokens: 'number' },
  },
  'elicitation/create': {
    kind: 'request',
    sender: 'server',
    gate: client('elicitation'),
    since: '2025-06-18',
    until: LEGACY_LAST,
    params: { message: 'string' },
  },
  'roots/list': {
    kind: 'request',
    sender: 'server',
    gate: client('roots'),
    since: FIRST,
    until: LEGACY_LAST,
  },
  // TASK-1: the receiver's `tasks` capability gates these (the tasks extension in 2026-07-28).
  'tasks/get': {
    kind: 'request',
    sender: 'both',
    gate: receiver('tasks'),
    statelessGate: TASKS_EXTENSION,
    since: LEGACY_LAST,
    params: { taskId: 'string' },
  },
  'tasks/result': {
    kind: 'request',
    sender: 'both',
    gate: receiver('tasks'),
    since: LEGACY_LAST,
    until: LEGACY_LAST,
    params: { taskId: 'string' },
  },
  'tasks/list': {
    kind: 'request',
    sender: 'both',
    gate: receiver('tasks', 'list'),
    since: LEGACY_LAST,
    until: LEGACY_LAST,
    params: { cursor: 'string?' },
    isPaginated: true,
  },
  'tasks/cancel': {
    kind: 'request',
    sender: 'both',
    gate: receiver('tasks', 'cancel'),
    statelessGate: TASKS_EXTENSION,
    since: LEGACY_LAST,
    params: { taskId: 'string' },
  },
  'tasks/update': {
    kind: 'request',
    sender: 'client',
    gate: TASKS_EXTENSION,
    since: MODERN,
    params: { taskId: 'string', inputResponses: 'object' },
  },
  'notifications/initialized': { kind: 'notification', sender: 'client', since: FIRST, until: LEGACY_LAST },
  'notifications/cancelled': {
    kind: 'notification',
    sender: 'both',
    since: FIRST,
    params: { requestId: 'id?', reason: 'string?' },
  },
  'notifications/progress': {
    kind: 'notification',
    sender: 'both',
    since: FIRST,
    params: { progress: 'number' },
  },
  'notifications/message': {
    kind: 'notification',
    sender: 'server',
    gate: server('logging'),
    since: FIRST,
    params: { level: 'string' },
  },
  'notifications/resources/list_changed': {
    kind: 'notification',
    sender: 'server',
    gate: server('resources', 'listChanged'),
    since: FIRST,
  },
  'notifications/resources/updated': {
    kind: 'notification',
    sender: 'server',
    gate: server('resources', 'subscribe'),
    since: FIRST,
    params: { uri: 'string' },
  },
  'notifications/prompts/list_changed': {
    kind: 'notification',
    sender: 'server',
    gate: server('prompts', 'listChanged'),
    since: FIRST,
  },
  'notifications/tools/list_changed': {
    kind: 'notification',
    sender: 'server',
    gate: server('tools', 'listChanged'),
    since: FIRST,
  },
  'notifications/roots/list_changed': {
    kind: 'notification',
    sender: 'client',
    gate: client('roots', 'listChanged'),
    since: FIRST,
    until: LEGACY_LAST,
  },
  'notifications/elicitation/complete': {
    kind: 'notification',
    sender: 'server',
    gate: client('elicitation', 'url'),
    since: LEGACY_LAST,
    until: LEGACY_LAST,
    params: { elicitationId: 'string' },
  },
  'notifications/tasks/status': {
    kind: 'notification',
    sender: 'both',
    since: LEGACY_LAST,
    until: LEGACY_LAST,
    params: { taskId: 'string' },
  },
  'notifications/subscriptions/acknowledged': {
    kind: 'notification',
    sender: 'server',
    since: MODERN,
    params: { notifications: 'object' },
  },
} as const satisfies Record<string, MethodSpec>;

/** A method name the core table knows. */
export type Method = keyof typeof METHODS;

/** True if `method` exists in protocol revision `version` (ISO date strings compare in order). */
export function isMethodInRevision(spec: MethodSpec, version: string): boolean {
  return version >= spec.since && (spec.until === undefined || version <= spec.until);
}

/** True if `role` may send this method. */
export function canSend(spec: MethodSpec, role: 'client' | 'server'): boolean {
  return spec.sender === 'both' || spec.sender === role;
}

/** Whether the gate applies in this revision: 2024-11-05 offered completion without a capability flag. */
export function isGateRequired(method: string, version: string): boolean {
  return !(method === 'completion/complete' && version < '2025-03-26');
}

/**
 * Checks `params` against the row's shallow rules. Returns a readable problem naming the method and
 * the field (for a -32602 message), or undefined when the params are acceptable.
 */
export function checkParams(method: string, spec: MethodSpec, params: unknown): string | undefined {
  const rules = compiledRules(spec);
  if (rules.length === 0) return undefined;
  const record = (params ?? {}) as Record<string, unknown>;
  for (const { key, type, isOptional } of rules) {
    const value = record[key];
    if (value === undefined) {
      if (isOptional) continue;
      return `Invalid params for "${method}": missing required "${key}"`;
    }
    if (!matchesRule(type, value)) {
      return `Invalid params for "${method}": "${key}" must be ${article(type)}, got ${describeValue(value)}`;
    }
  }
  return undefined;
}

interface CompiledRule {
  key: string;
  type: ParamRule;
  isOptional: boolean;
}

/** A row's rules as a list, parsed once per row (every inbound and outbound message is checked). */
function compiledRules(spec: MethodSpec): readonly CompiledRule[] {
  let rules = compiled.get(spec);
  if (rules === undefined) {
    rules = Object.entries(spec.params ?? {}).map(([key, rule]) => {
      const isOptional = rule.endsWith('?');
      return { key, type: (isOptional ? rule.slice(0, -1) : rule) as ParamRule, isOptional };
    });
    compiled.set(spec, rules);
  }
  return rules;
}

const compiled = new WeakMap<MethodSpec, readonly CompiledRule[]>();

function matchesRule(type: ParamRule, value: unknown): boolean {
  switch (type) {
    case 'any':
      return true;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'id':
      return typeof value === 'string' || Number.isInteger(value);
    default:
      return typeof value === type;
  }
}

function article(type: string): string {
  if (type === 'id') return 'a string or an integer';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
