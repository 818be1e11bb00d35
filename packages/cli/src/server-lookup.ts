// Finding the tool or prompt a command names on the server, with a message listing what exists.

import type { Client } from 'mcpwire/client';
import type { Prompt, Tool } from 'mcpwire';
import { UsageError } from './exit-code.ts';

/** The tool named `name` (all pages of tools/list are read); UsageError naming the tools there are. */
export async function findTool(client: Client, name: string, signal: AbortSignal): Promise<Tool> {
  if (client.serverCapabilities?.tools === undefined)
    throw new UsageError(`the server offers no tools (it does not declare the "tools" capability)`);
  const tools = await client.listAllTools({ signal });
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new UsageError(`unknown tool "${name}": the server has ${names(tools)}`);
  return tool;
}

/** The prompt named `name`; UsageError naming the prompts there are. */
export async function findPrompt(client: Client, name: string, signal: AbortSignal): Promise<Prompt> {
  if (client.serverCapabilities?.prompts === undefined)
    throw new UsageError(`the server offers no prompts (it does not declare the "prompts" capability)`);
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
