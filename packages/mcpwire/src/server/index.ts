// The public server API (`mcpwire/server`): the Server definition, its registration types for tools,
// resources and prompts, the request context handlers receive, and middleware.

export { Server, type ServerOptions } from './server.ts';
export { ServerCore, type ServerCoreOptions } from './server-core.ts';
export type { ServerSession } from './server-session.ts';
export type { ExtensionHost, ServerExtension, ServerExtensionPart } from './extension.ts';
export type { ListenFeed, ListenRequest, OpenedListenFeed } from './listen-feed.ts';
export type { RequestOrigin, ServerMethodHandler } from './method-handlers.ts';
export type { ToolArguments, ToolDefinition, ToolHandler, ToolReturn } from './tools.ts';
export {
  createResourceNotFoundError,
  type Completer,
  type ReadResourceReturn,
  type ResourceDefinition,
  type ResourceHandler,
  type ResourceTemplateDefinition,
  type StaticResourceDefinition,
} from './resources.ts';
export type { PromptDefinition, PromptHandler, PromptReturn } from './prompts.ts';
export { MAX_COMPLETION_VALUES } from './completion.ts';
export { INPUT_KEY_META } from './handshake-broker.ts';
export { CLIENT_CAPABILITIES_META } from './request-capabilities.ts';
export type { Era, InputOptions, Middleware, RequestContext } from './context.ts';
export type { Principal } from '../protocol/principal.ts';
export type { Registration } from './registry.ts';
export { LOGGING_LEVELS, isLevelEnabled, isLoggingLevel } from './logging.ts';
export type {
  JsonSchemaValidator,
  SchemaInput,
  StandardSchemaV1,
  Validate,
  ValidateResult,
} from '../validation/index.ts';
