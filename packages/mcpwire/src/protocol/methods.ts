// THE core method table: every MCP method once, as one typed row (`describeMethod<Params, Result>()`):
// direction, gate, eras, parameter shape, header and lifecycle facts, requirement ids, and the params
// and result types that server handlers and client calls take from it. MethodTable (method-table.ts)
// opens it to extensions; the inbound check (inbound-check.ts) and both sides' dispatch read it.

import type {
  CallToolRequestParams,
  CallToolResult,
  CancelledNotificationParams,
  CancelTaskRequestParams,
  CancelTaskResult,
  CompleteRequestParams,
  CompleteResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  DiscoverResult,
  ElicitationCompleteNotificationParams,
  ElicitRequestParams,
  ElicitResult,
  EmptyResult,
  GetPromptRequestParams,
  GetPromptResult,
  GetTaskPayloadRequestParams,
  GetTaskPayloadResult,
  GetTaskRequestParams,
  GetTaskResult,
  InitializeRequestParams,
  InitializeResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListRootsResult,
  ListTasksResult,
  ListToolsResult,
  LoggingMessageNotificationParams,
  NotificationParams,
  PaginatedRequestParams,
  ProgressNotificationParams,
  ReadResourceRequestParams,
  ReadResourceResult,
  RequestParams,
  ResourceUpdatedNotificationParams,
  SetLevelRequestParams,
  SubscribeRequestParams,
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsListenRequestParams,
  SubscriptionsListenResult,
  TaskStatusNotificationParams,
  UnsubscribeRequestParams,
} from './types/index.ts';
import type { JsonObject } from '../jsonrpc/message.ts';
import { describeMethod, type CapabilityGate, type MethodSpec } from './method-spec.ts';

export { checkParams } from './method-params.ts';
export {
  canSend,
  describeMethod,
  isMethodInRevision,
  type CapabilityGate,
  type DescribedParams,
  type DescribedResult,
  type MethodDescription,
  type MethodSpec,
  type ParamRule,
  type Sender,
} from './method-spec.ts';

const HANDSHAKE_LAST = '2025-11-25';
const FIRST = '2024-11-05';
const STATELESS = '2026-07-28';

const server = (...path: [string, ...string[]]): CapabilityGate => ({ side: 'server', path });
const client = (...path: [string, ...string[]]): CapabilityGate => ({ side: 'client', path });
const receiver = (...path: [string, ...string[]]): CapabilityGate => ({ side: 'receiver', path });
/** The stateless era's home of the tasks methods: the server's tasks extension (S26-TASK-1). */
const TASKS_EXTENSION = server('extensions', 'io.modelcontextprotocol/tasks');
/** The requirement an undeclared gate breaks: in the handshake era, and in the stateless era if any. */
const broken = (handshake: string, stateless?: string): { handshake: string; stateless?: string } =>
  stateless === undefined ? { handshake } : { handshake, stateless };

/**
 * Every method of revisions 2024-11-05 .. 2026-07-28, one typed row each. A plain object for
 * iteration and types; dispatch looks rows up through MethodTable (prototype-less, one read).
 */
export const METHODS = {
  initialize: describeMethod<InitializeRequestParams, InitializeResult>()({
    kind: 'request',
    sender: 'client',
    since: FIRST,
    until: HANDSHAKE_LAST,
    params: { protocolVersion: 'string', capabilities: 'object', clientInfo: 'object' },
    isAllowedBeforeInit: true,
  }),
  ping: describeMethod<RequestParams, EmptyResult>()({
    kind: 'request',
    sender: 'both',
    since: FIRST,
    until: HANDSHAKE_LAST,
    isAllowedBeforeInit: true,
  }),
  'server/discover': describeMethod<RequestParams, DiscoverResult>()({
    kind: 'request',
    sender: 'client',
    since: STATELESS,
    cache: 'discover',
  }),
  'tools/list': describeMethod<PaginatedRequestParams, ListToolsResult>()({
    kind: 'request',
    sender: 'client',
    gate: server('tools'),
    gateRequirement: broken('TOOL-1', 'S26-DISC-4'),
    since: FIRST,
    params: { cursor: 'string?' },
    isPaginated: true,
    cache: 'lists',
  }),
  'tools/call': describeMethod<CallToolRequestParams, CallToolResult>()({
    kind: 'request',
    sender: 'client',
    gate: server('tools'),
    gateRequirement: broken('TOOL-1', 'S26-DISC-4'),
    since: FIRST,
    params: { name: 'string', arguments: 'object?' },
    hasInputRounds: true,
    nameParam: 'name',
    taskRequirement: 'TASK-3',
  }),
  'resources/list': describeMethod<PaginatedRequestParams, ListResourcesResult>()({
    kind: 'request',
    sender: 'client',
    gate: server('resources'),
    gateRequirement: broken('RES-1', 'S26-DISC-4'),
    since: FIRST,
    params: { cursor: 'string?' },
    isPaginated: true,
    cache: 'lists',
  }),
  'resources/templates/list': describeMethod<PaginatedRequestParams, ListResourceTemplatesResult>()({
    kind: 'request',
    sender: 'client',
    gate: server('resources'),
    gateRequirement: broken('RES-1', 'S26-DISC-4'),
    since: FIRST,
    params: { cursor: 'string?' },
    isPaginated: true,
    cache: 'lists',
  }),
  'resources/read': describeMethod<ReadResourceRequestParams, ReadResourceResult>()({
    kind: 'request',
    sender: 'client',
    gate: server('resources'),
    gateRequirement: broken('RES-1', 'S26-DISC-4'),
    since: FIRST,
    params: { uri: 'string' },
    cache: 'read',
    hasInputRounds: true,
    nameParam: 'uri',
  }),
  'resources/subscribe': describeMethod<SubscribeRequestParams, EmptyResult>()({
    kind: 'request',
    sender: 'client',
    gate: server('resources', 'subscribe'),
    gateRequirement: broken('RES-5'),
    since: FIRST,
    until: HANDSHAKE_LAST,
    params: { uri: 'string' },
  }),
  'resources/unsubscribe': describeMethod<UnsubscribeRequestParams, EmptyResult>()({
    kind: 'request',
    sender: 'client',
    gate: server('resources', 'subscribe'),
    gateRequirement: broken('RES-5'),
    since: FIRST,
    until: HANDSHAKE_LAST,
    params: { uri: 'string' },
  }),
  'prompts/list': describeMethod<PaginatedRequestParams, ListPromptsResult>()({
    kind: 'request',
    sender: 'client',
    gate: server('prompts'),
    gateRequirement: broken('PROMPT-1', 'S26-DISC-4'),
    since: FIRST,
    params: { cursor: 'string?' },
    isPaginated: true,
    cache: 'lists',
  }),
  'prompts/get': describeMethod<GetPromptRequestParams, GetPromptResult>()({
    kind: 'request',
    sender: 'client',
    gate: server('prompts'),
    gateRequirement: broken('PROMPT-1', 'S26-DISC-4'),
    since: FIRST,
    params: { name: 'string', arguments: 'object?' },
    hasInputRounds: true,
    nameParam: 'name',
  }),
  // 2024-11-05 had no `completions` capability; the gate applies from 2025-03-26 (see isGateRequired).
  'completion/complete': describeMethod<CompleteRequestParams, CompleteResult>()({
    kind: 'request',
    sender: 'client',
    gate: server('completions'),
    gateRequirement: broken('COMP-1', 'S26-COMP-1'),
    since: FIRST,
    params: { ref: 'object', argument: 'object', context: 'object?' },
  }),
  'logging/setLevel': describeMethod<SetLevelRequestParams, EmptyResult>()({
    kind: 'request',
    sender: 'client',
    gate: server('logging'),
    gateRequirement: broken('LOG-1'),
    since: FIRST,
    until: HANDSHAKE_LAST,
    params: { level: 'string' },
  }),
  'subscriptions/listen': describeMethod<SubscriptionsListenRequestParams, SubscriptionsListenResult>()({
    kind: 'request',
    sender: 'client',
    since: STATELESS,
    params: { notifications: 'object' },
    isStreamed: true,
  }),
  'sampling/createMessage': describeMethod<CreateMessageRequestParams, CreateMessageResult>()({
    kind: 'request',
    sender: 'server',
    gate: client('sampling'),
    gateRequirement: broken('SAMP-1'),
    since: FIRST,
    until: HANDSHAKE_LAST,
    params: { messages: 'array', maxTokens: 'number' },
    taskRequirement: 'TASK-2',
  }),
  'elicitation/create': describeMethod<ElicitRequestParams, ElicitResult>()({
    kind: 'request',
    sender: 'server',
    gate: client('elicitation'),
    gateRequirement: broken('ELIC-1'),
    since: '2025-06-18',
    until: HANDSHAKE_LAST,
    params: { message: 'string' },
    taskRequirement: 'TASK-2',
  }),
  'roots/list': describeMethod<RequestParams, ListRootsResult>()({
    kind: 'request',
    sender: 'server',
    gate: client('roots'),
    gateRequirement: broken('ROOT-1'),
    since: FIRST,
    until: HANDSHAKE_LAST,
  }),
  // TASK-1: the receiver's `tasks` capability gates these (the tasks extension in 2026-07-28).
  'tasks/get': describeMethod<GetTaskRequestParams, GetTaskResult>()({
    kind: 'request',
    sender: 'both',
    gate: receiver('tasks'),
    statelessGate: TASKS_EXTENSION,
    gateRequirement: broken('TASK-1'),
    since: HANDSHAKE_LAST,
    params: { taskId: 'string' },
    nameParam: 'taskId',
  }),
  'tasks/result': describeMethod<GetTaskPayloadRequestParams, GetTaskPayloadResult>()({
    kind: 'request',
    sender: 'both',
    gate: receiver('tasks'),
    gateRequirement: broken('TASK-1'),
    since: HANDSHAKE_LAST,
    until: HANDSHAKE_LAST,
    params: { taskId: 'string' },
  }),
  'tasks/list': describeMethod<PaginatedRequestParams, ListTasksResult>()({
    kind: 'request',
    sender: 'both',
    gate: receiver('tasks', 'list'),
    gateRequirement: broken('TASK-1'),
    since: HANDSHAKE_LAST,
    until: HANDSHAKE_LAST,
    params: { cursor: 'string?' },
    isPaginated: true,
  }),
  'tasks/cancel': describeMethod<CancelTaskRequestParams, CancelTaskResult>()({
    kind: 'request',
    sender: 'both',
    gate: receiver('tasks', 'cancel'),
    statelessGate: TASKS_EXTENSION,
    gateRequirement: broken('TASK-1'),
    since: HANDSHAKE_LAST,
    params: { taskId: 'string' },
    nameParam: 'taskId',
  }),
  // S26-TASK-10: the answers go back keyed as the task's `inputRequests` asked for them.
  'tasks/update': describeMethod<GetTaskRequestParams & { inputResponses: JsonObject }, EmptyResult>()({
    kind: 'request',
    sender: 'client',
    gate: TASKS_EXTENSION,
    since: STATELESS,
    params: { taskId: 'string', inputResponses: 'object' },
    nameParam: 'taskId',
  }),
  'notifications/initialized': describeMethod<NotificationParams, never>()({
    kind: 'notification',
    sender: 'client',
    since: FIRST,
    until: HANDSHAKE_LAST,
  }),
  // A request sent early (a ping) may time out early, and its sender then cancels it (LIFE-15).
  'notifications/cancelled': describeMethod<CancelledNotificationParams, never>()({
    kind: 'notification',
    sender: 'both',
    since: FIRST,
    params: { requestId: 'id?', reason: 'string?' },
    isAllowedBeforeInit: true,
  }),
  'notifications/progress': describeMethod<ProgressNotificationParams, never>()({
    kind: 'notification',
    sender: 'both',
    since: FIRST,
    params: { progress: 'number' },
    isAllowedBeforeInit: true,
  }),
  'notifications/message': describeMethod<LoggingMessageNotificationParams, never>()({
    kind: 'notification',
    sender: 'server',
    gate: server('logging'),
    gateRequirement: broken('LOG-1', 'S26-LOG-3'),
    since: FIRST,
    params: { level: 'string' },
    isAllowedBeforeInit: true,
  }),
  'notifications/resources/list_changed': describeMethod<NotificationParams, never>()({
    kind: 'notification',
    sender: 'server',
    gate: server('resources', 'listChanged'),
    gateRequirement: broken('LIFE-11', 'S26-SUB-7'),
    since: FIRST,
  }),
  'notifications/resources/updated': describeMethod<ResourceUpdatedNotificationParams, never>()({
    kind: 'notification',
    sender: 'server',
    gate: server('resources', 'subscribe'),
    gateRequirement: broken('RES-5', 'S26-SUB-7'),
    since: FIRST,
    params: { uri: 'string' },
  }),
  'notifications/prompts/list_changed': describeMethod<NotificationParams, never>()({
    kind: 'notification',
    sender: 'server',
    gate: server('prompts', 'listChanged'),
    gateRequirement: broken('LIFE-11', 'S26-SUB-7'),
    since: FIRST,
  }),
  'notifications/tools/list_changed': describeMethod<NotificationParams, never>()({
    kind: 'notification',
    sender: 'server',
    gate: server('tools', 'listChanged'),
    gateRequirement: broken('LIFE-11', 'S26-SUB-7'),
    since: FIRST,
  }),
  'notifications/roots/list_changed': describeMethod<NotificationParams, never>()({
    kind: 'notification',
    sender: 'client',
    gate: client('roots', 'listChanged'),
    gateRequirement: broken('LIFE-11'),
    since: FIRST,
    until: HANDSHAKE_LAST,
  }),
  'notifications/elicitation/complete': describeMethod<ElicitationCompleteNotificationParams, never>()({
    kind: 'notification',
    sender: 'server',
    gate: client('elicitation', 'url'),
    gateRequirement: broken('ELIC-11'),
    since: HANDSHAKE_LAST,
    until: HANDSHAKE_LAST,
    params: { elicitationId: 'string' },
  }),
  'notifications/tasks/status': describeMethod<TaskStatusNotificationParams, never>()({
    kind: 'notification',
    sender: 'both',
    since: HANDSHAKE_LAST,
    until: HANDSHAKE_LAST,
    params: { taskId: 'string' },
  }),
  'notifications/subscriptions/acknowledged': describeMethod<
    SubscriptionsAcknowledgedNotificationParams,
    never
  >()({
    kind: 'notification',
    sender: 'server',
    since: STATELESS,
    params: { notifications: 'object' },
  }),
} as const satisfies Record<string, MethodSpec>;

/** A method name the core table knows. */
export type Method = keyof typeof METHODS;

/** Whether the gate applies in this revision: 2024-11-05 offered completion without a capability flag. */
export function isGateRequired(method: string, version: string): boolean {
  return !(method === 'completion/complete' && version < '2025-03-26');
}
