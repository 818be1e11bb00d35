// The server definition: what it offers (tools, resources, prompts), its method table and middleware.
// One definition serves any number of connections, in either protocol era. ServerCore (server-core.ts)
// is everything but sessions, the resources, prompts and completions features and the default validator.

import { createDefaultValidator } from '#default-validator';
import type { Implementation } from '../protocol/types/index.ts';
import type { Channel, ChannelServer } from '../transports/channel.ts';
import type { JsonSchemaValidator } from '../validation/index.ts';
import { createFeatures } from './feature-handlers.ts';
import type { PromptDefinition, PromptHandler, Prompts } from './prompts.ts';
import type { Registration } from './registry.ts';
import type { ResourceDefinition, ResourceHandler, Resources } from './resources.ts';
import { ServerCore, type ServerCoreOptions } from './server-core.ts';
import { ServerSession } from './server-session.ts';

/** Options for a server definition. */
export interface ServerOptions extends ServerCoreOptions {
  /**
   * JSON Schema validator for tool arguments and output given as JSON Schema (a Standard Schema, such
   * as zod's, validates with its own `~standard.validate` instead). Default: Ajv (2020-12, draft-07),
   * or `createCfWorkerValidator()` where code generation is forbidden and in bundles for edge
   * runtimes; pass one from `mcpwire/validators/ajv` or `mcpwire/validators/cfworker` to choose.
   */
  validator?: JsonSchemaValidator;
}

/**
 * An MCP server definition. Register tools, resources and prompts (at any time: connected clients
 * hear list_changed), add middleware, then connect it to channels.
 */
export class Server extends ServerCore implements ChannelServer {
  declare readonly resources: Resources;
  declare readonly prompts: Prompts;
  #sessions = new Set<ServerSession>();

  constructor(info: Implementation, options: ServerOptions = {}) {
    super(
      info,
      options.validator ? options : { ...options, validator: createDefaultValidator() },
      createFeatures(),
    );
    this.onListChanged((kind) => {
      for (const session of this.#sessions) session.listChanged(kind);
    });
  }

  /** Serves one handshake-era (or dual-era) connection. The session starts receiving immediately. */
  connect(channel: Channel): ServerSession {
    const session = new ServerSession(this, channel, () => this.#sessions.delete(session));
    this.#sessions.add(session);
    session.start();
    return session;
  }

  /** Tells every subscribed client (either era) that a resource changed (`notifications/resources/updated`). */
  override notifyResourceUpdated(uri: string): void {
    for (const session of this.#sessions) session.resourceUpdated(uri);
    super.notifyResourceUpdated(uri);
  }

  /**
   * Tells this server's handshake-era sessions and listen streams that a list changed on another
   * server of the same definition (an HTTP handler relays it from its message bus); no listener hears it.
   */
  override relayListChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    super.relayListChanged(kind);
    for (const session of this.#sessions) session.listChanged(kind);
  }

  /** Tells this server's subscribed sessions and listen streams that a resource changed elsewhere (see `relayListChanged`). */
  override relayResourceUpdated(uri: string): void {
    super.relayResourceUpdated(uri);
    for (const session of this.#sessions) session.resourceUpdated(uri);
  }

  /** Ends listen streams gracefully, then closes every connection. */
  override async close(): Promise<void> {
    await super.close();
    await Promise.all([...this.#sessions].map((session) => session.close()));
  }

  /** Registers a resource (`uri`) or a resource template (`uriTemplate`). */
  resource(definition: ResourceDefinition, handler: ResourceHandler): Registration<ResourceDefinition> {
    return this.resources.add(definition, handler);
  }

  /** Registers a prompt. */
  prompt(definition: PromptDefinition, handler: PromptHandler): Registration<PromptDefinition> {
    return this.prompts.add(definition, handler);
  }
}
