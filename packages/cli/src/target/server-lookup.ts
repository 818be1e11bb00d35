// Finding what a command needs on the server before asking for it: the capability (with a message
// saying what the server does offer), and the tool or prompt by name (with a message listing what exists).

import type { Client } from 'mcpwire/client';
import type { Prompt, Tool } from 'mcpwire';
import { UsageError } from '../exit-code.ts';

/** The server capabilities the commands use, in the order they are named. */
const FEATURES = ['tools', 'resources', 'prompts', 'completions'] as const;

/** A server capability a command needs. */
export type Feature = (typeof FEATURES)[number];

/**
 * Throws UsageError (exit 2) when the server does not declare `capability`, naming it, `what` the
 * command wanted ("resource templates") and the capabilities the server does declare. Sends nothing.
 */
export function requireCapability(client: Client, capability: Feature, what: string = capability): void {
  const declared = client.serverCapabilities ?? {};
  if (declared[capability] !== undefined) return;
  const offered = FEATURES.filter((feature) => declared[feature] !== undefined);
  throw new UsageError(
    `the server offers no ${what} (it does not declare the "${capability}" capability); it offers ${
      offered.length === 0 ? `none of ${FEATURES.join(', ')}` : offered.join(', ')
    }`,
  );
}

/** The tool named `name` (all pages of tools/list are read); UsageError naming the tools there are. */
export async function findTool(client: Client, name: string, signal: AbortSignal): Promise<Tool> {
  requireCapability(client, 'tools');
  const tools = await client.listAllTools({ signal });
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new UsageError(`unknown tool "${name}": the server has ${names(tools)}`);
  return tool;
}

/** The prompt named `name`; UsageError naming the prompts there are. */
export async function findPrompt(client: Client, name: string, signal: AbortSignal): Promise<Prompt> {
  requireCapability(client, 'prompts');
  const prompts = await client.listAllPrompts({ signal });
  const prompt = prompts.find((candidate) => candidate.name === name);
  if (prompt === undefined)
    throw new UsageError(`unknown prompt "${name}": the server has ${names(prompts)}`);
  return prompt;
}

function names(items: ReadonlyArray<{ name: string }>): string {
  if (items.length === 0) return 'none';
  const shown = items.slice(0, 30).map((item) => item.name);
  return `${shown.join(', ')}${items.length > shown.length ? `, and ${items.length - shown.length} more` : ''}`;
}
