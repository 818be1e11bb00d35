// Which capability each method needs of which side, and the requirement a message breaks when it
// was not declared (2025-11-25 checklist section 1.1/1.2; 2026-07-28 sections 1.1, 2.10, 2.13).

/**
 * The capability a method needs: who may send the method, who declares the capability (for tasks,
 * whoever receives the request; for a server's notifications, the server itself) and where.
 */
export interface CapabilityGate {
  readonly sender: 'client' | 'server' | 'both';
  readonly side: 'client' | 'server' | 'receiver';
  readonly path: readonly [string, ...string[]];
  /** The requirement broken in the handshake era, and in 2026-07-28 (absent: the method is gone there). */
  readonly legacy: string;
  readonly modern?: string;
}

/** A client request the server's capability gates (tools, resources, ...). */
const served = (
  legacy: string,
  modern: string | undefined,
  ...path: [string, ...string[]]
): CapabilityGate =>
  modern === undefined
    ? { sender: 'client', side: 'server', path, legacy }
    : { sender: 'client', side: 'server', path, legacy, modern };
/** A server notification its own capability promises (logging, listChanged, subscribe). */
const announced = (legacy: string, modern: string, ...path: [string, ...string[]]): CapabilityGate => ({
  sender: 'server',
  side: 'server',
  path,
  legacy,
  modern,
});
/** A message the client's capability gates: `sender` sends it (the server's requests, roots/list_changed). */
const ofClient = (
  sender: 'client' | 'server',
  legacy: string,
  ...path: [string, ...string[]]
): CapabilityGate => ({ sender, side: 'client', path, legacy });
const receiver = (...path: [string, ...string[]]): CapabilityGate => ({
  sender: 'both',
  side: 'receiver',
  path,
  legacy: 'TASK-1',
});

/** Methods behind a capability, by method name. */
export const CAPABILITY_GATES: Readonly<Record<string, CapabilityGate>> = {
  'tools/list': served('TOOL-1', 'S26-DISC-4', 'tools'),
  'tools/call': served('TOOL-1', 'S26-DISC-4', 'tools'),
  'resources/list': served('RES-1', 'S26-DISC-4', 'resources'),
  'resources/templates/list': served('RES-1', 'S26-DISC-4', 'resources'),
  'resources/read': served('RES-1', 'S26-DISC-4', 'resources'),
  'resources/subscribe': served('RES-5', undefined, 'resources', 'subscribe'),
  'resources/unsubscribe': served('RES-5', undefined, 'resources', 'subscribe'),
  'prompts/list': served('PROMPT-1', 'S26-DISC-4', 'prompts'),
  'prompts/get': served('PROMPT-1', 'S26-DISC-4', 'prompts'),
  'completion/complete': served('COMP-1', 'S26-COMP-1', 'completions'),
  'logging/setLevel': served('LOG-1', undefined, 'logging'),
  'notifications/message': announced('LOG-1', 'S26-LOG-3', 'logging'),
  'notifications/tools/list_changed': announced('LIFE-11', 'S26-SUB-7', 'tools', 'listChanged'),
  'notifications/prompts/list_changed': announced('LIFE-11', 'S26-SUB-7', 'prompts', 'listChanged'),
  'notifications/resources/list_changed': announced('LIFE-11', 'S26-SUB-7', 'resources', 'listChanged'),
  'notifications/resources/updated': announced('RES-5', 'S26-SUB-7', 'resources', 'subscribe'),
  'sampling/createMessage': ofClient('server', 'SAMP-1', 'sampling'),
  'elicitation/create': ofClient('server', 'ELIC-1', 'elicitation'),
  'roots/list': ofClient('server', 'ROOT-1', 'roots'),
  'notifications/roots/list_changed': ofClient('client', 'LIFE-11', 'roots', 'listChanged'),
  'notifications/elicitation/complete': ofClient('server', 'ELIC-11', 'elicitation', 'url'),
  'tasks/get': receiver('tasks'),
  'tasks/result': receiver('tasks'),
  'tasks/list': receiver('tasks', 'list'),
  'tasks/cancel': receiver('tasks', 'cancel'),
};

/**
 * The capability a task-augmented request (`params.task`, 2025-11-25) needs of its receiver: a
 * client MUST NOT add a task to tools/call without it (TASK-3); for the others it SHOULD NOT (TASK-2).
 */
export const TASK_GATES: Readonly<Record<string, { path: readonly string[]; requirement: string }>> = {
  'tools/call': { path: ['tasks', 'requests', 'tools', 'call'], requirement: 'TASK-3' },
  'sampling/createMessage': {
    path: ['tasks', 'requests', 'sampling', 'createMessage'],
    requirement: 'TASK-2',
  },
  'elicitation/create': { path: ['tasks', 'requests', 'elicitation', 'create'], requirement: 'TASK-2' },
};
