// The params and result types of the core methods, key for key with METHODS (a compile-time check
// keeps the two in step), and the method-name types derived from the table (what a side receives).

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
import type { Method, METHODS, Sender } from './methods.ts';

/**
 * The params and result types of every core method, key for key with METHODS (the two checks below
 * fail to compile if a row is added to one and not the other). Notifications have no result.
 */
export interface CoreMethodTypes {
  initialize: { params: InitializeRequestParams; result: InitializeResult };
  ping: { params: RequestParams; result: EmptyResult };
  'server/discover': { params: RequestParams; result: DiscoverResult };
  'tools/list': { params: PaginatedRequestParams; result: ListToolsResult };
  'tools/call': { params: CallToolRequestParams; result: CallToolResult };
  'resources/list': { params: PaginatedRequestParams; result: ListResourcesResult };
  'resources/templates/list': { params: PaginatedRequestParams; result: ListResourceTemplatesResult };
  'resources/read': { params: ReadResourceRequestParams; result: ReadResourceResult };
  'resources/subscribe': { params: SubscribeRequestParams; result: EmptyResult };
  'resources/unsubscribe': { params: UnsubscribeRequestParams; result: EmptyResult };
  'prompts/list': { params: PaginatedRequestParams; result: ListPromptsResult };
  'prompts/get': { params: GetPromptRequestParams; result: GetPromptResult };
  'completion/complete': { params: CompleteRequestParams; result: CompleteResult };
  'logging/setLevel': { params: SetLevelRequestParams; result: EmptyResult };
  'subscriptions/listen': { params: SubscriptionsListenRequestParams; result: SubscriptionsListenResult };
  'sampling/createMessage': { params: CreateMessageRequestParams; result: CreateMessageResult };
  'elicitation/create': { params: ElicitRequestParams; result: ElicitResult };
  'roots/list': { params: RequestParams; result: ListRootsResult };
  'tasks/get': { params: GetTaskRequestParams; result: GetTaskResult };
  'tasks/result': { params: GetTaskPayloadRequestParams; result: GetTaskPayloadResult };
  'tasks/list': { params: PaginatedRequestParams; result: ListTasksResult };
  'tasks/cancel': { params: CancelTaskRequestParams; result: CancelTaskResult };
  'tasks/update': { params: GetTaskRequestParams; result: EmptyResult };
  'notifications/initialized': { params: NotificationParams; result: never };
  'notifications/cancelled': { params: CancelledNotificationParams; result: never };
  'notifications/progress': { params: ProgressNotificationParams; result: never };
  'notifications/message': { params: LoggingMessageNotificationParams; result: never };
  'notifications/resources/list_changed': { params: NotificationParams; result: never };
  'notifications/resources/updated': { params: ResourceUpdatedNotificationParams; result: never };
  'notifications/prompts/list_changed': { params: NotificationParams; result: never };
  'notifications/tools/list_changed': { params: NotificationParams; result: never };
  'notifications/roots/list_changed': { params: NotificationParams; result: never };
  'notifications/elicitation/complete': { params: ElicitationCompleteNotificationParams; result: never };
  'notifications/tasks/status': { params: TaskStatusNotificationParams; result: never };
  'notifications/subscriptions/acknowledged': {
    params: SubscriptionsAcknowledgedNotificationParams;
    result: never;
  };
}

// Compile-time: the type map and the table name the same methods.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _typesCoverTable: Same<keyof CoreMethodTypes, Method> = true;
void _typesCoverTable;

/** The params type of a core method. */
export type ParamsOf<M extends Method> = CoreMethodTypes[M]['params'];
/** The result type of a core request. */
export type ResultOf<M extends Method> = CoreMethodTypes[M]['result'];

/** The core requests a side receives (the other side, or either, sends them). */
export type InboundRequestMethod<Receiver extends 'client' | 'server'> = {
  [M in Method]: (typeof METHODS)[M] extends {
    kind: 'request';
    sender: Exclude<Sender, Receiver>;
  }
    ? M
    : never;
}[Method];
