// What `mcpwire check` and `mcpwire pin` look at: every tool, prompt, resource and resource template
// a server lists (all pages), each with the key that identifies it, capped in depth before any walk.

import type { Client } from 'mcpwire/client';
import { capDepth } from '../wire/json-depth.ts';

/** The four kinds of definition a server lists. */
export type DefinitionKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate';

/** One listed definition. */
export interface Definition {
  kind: DefinitionKind;
  /** What identifies it: the name of a tool or prompt, the `uri` of a resource, the `uriTemplate` of a template. */
  name: string;
  /** The definition as listed, objects nested deeper than MAX_JSON_DEPTH cut (json-depth.ts). */
  value: Record<string, unknown>;
}

/** What a server offers, as `check` and `pin` see it. */
export interface ServerListing {
  server: { name: string; version: string };
  /** The negotiated protocol revision, e.g. `2025-11-25`. */
  protocolVersion: string;
  definitions: Definition[];
}

/** The plural each kind has in a summary line. */
export const KIND_PLURALS: Record<DefinitionKind, [string, string]> = {
  tool: ['tool', 'tools'],
  prompt: ['prompt', 'prompts'],
  resource: ['resource', 'resources'],
  resourceTemplate: ['resource template', 'resource templates'],
};

/**
 * Lists every kind the server declares a capability for, following every page, in the order tools,
 * prompts, resources, resource templates. Rejects as the first failed request does.
 */
export async function listDefinitions(client: Client, signal: AbortSignal): Promise<ServerListing> {
  const capabilities = client.serverCapabilities ?? {};
  const options = { signal };
  const definitions: Definition[] = [];
  const add = (kind: DefinitionKind, items: readonly unknown[], key: string): void => {
    for (const item of items) {
      const value = capDepth(item) as Record<string, unknown>;
      const name = value[key];
      definitions.push({ kind, name: typeof name === 'string' ? name : '', value });
    }
  };
  if (capabilities.tools !== undefined) add('tool', await client.listAllTools(options), 'name');
  if (capabilities.prompts !== undefined) add('prompt', await client.listAllPrompts(options), 'name');
  if (capabilities.resources !== undefined) {
    add('resource', await client.listAllResources(options), 'uri');
    add('resourceTemplate', await client.listAllResourceTemplates(options), 'uriTemplate');
  }
  const info = client.serverInfo;
  return {
    server: { name: info?.name ?? '', version: info?.version ?? '' },
    protocolVersion: client.protocolVersion ?? '',
    definitions,
  };
}
