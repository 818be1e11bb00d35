// `check --call`: the sample calls, made once each after the listing and only of the tools the user
// named. Every --call is resolved (a listed tool, arguments typed and checked by its inputSchema)
// before the first is sent, so a usage error calls nothing.

import { OutputValidationError, RpcError, type Client } from 'mcpwire/client';
import type { JsonObject } from 'mcpwire';
import { UsageError } from '../exit-code.ts';
import { parseToolArguments } from '../arguments/tool-arguments.ts';
import { parseCallSpec } from './call-spec.ts';
import type { CheckFinding } from './check-finding.ts';
import type { SampleCall } from './check-output.ts';
import type { Definition } from './definition.ts';
import { checkCallResult, type SampleCallOutcome } from './rules/call-result.ts';
import { isObject } from './schema-walk.ts';

/**
 * Calls each tool of `specs` (`--call` operands) once, in order, and returns the call/* findings
 * and the calls made.
 * Throws UsageError, before any call, for a tool `definitions` does not list, a tool that runs only
 * as a task, or arguments its inputSchema refuses. A JSON-RPC error is a finding; any other failure
 * (a closed connection, a timeout) rejects.
 */
export async function runSampleCalls(
  client: Client,
  definitions: readonly Definition[],
  options: { specs: readonly string[]; signal: AbortSignal },
): Promise<{ findings: CheckFinding[]; calls: SampleCall[] }> {
  const resolved = options.specs.map((spec) => resolveCall(spec, definitions));
  const findings: CheckFinding[] = [];
  for (const { tool, args } of resolved)
    findings.push(...checkCallResult(tool, await callOnce(client, tool.name, args, options.signal)));
  return { findings, calls: resolved.map(({ tool, args }) => ({ name: tool.name, arguments: args })) };
}

function resolveCall(
  spec: string,
  definitions: readonly Definition[],
): { tool: Definition; args: JsonObject } {
  const { tool: name, pairs } = parseCallSpec(spec);
  const tools = definitions.filter((definition) => definition.kind === 'tool');
  const tool = tools.find((definition) => definition.name === name);
  if (tool === undefined)
    throw new UsageError(
      `--call ${JSON.stringify(name)}: the server lists no such tool (it lists ${namesOf(tools)}); check calls only a listed tool`,
    );
  const execution = tool.value.execution;
  // TASK-3: a tool whose taskSupport is "required" answers a plain call with -32601.
  if (isObject(execution) && execution.taskSupport === 'required')
    throw new UsageError(
      `--call ${JSON.stringify(name)}: the tool runs only as a task, which check does not do`,
    );
  return { tool, args: parseToolArguments(pairs, tool.value.inputSchema) as JsonObject };
}

async function callOnce(
  client: Client,
  name: string,
  args: JsonObject,
  signal: AbortSignal,
): Promise<SampleCallOutcome> {
  try {
    return { result: await client.callTool({ name, arguments: args }, { signal }) };
  } catch (error) {
    // The client checks results against the outputSchema itself; the rules want the result as sent.
    if (error instanceof OutputValidationError) return { result: error.result };
    if (error instanceof RpcError) return { error: { code: error.code, message: error.message } };
    throw error;
  }
}

/** The names of `tools` for a message: the first 30, then how many more. */
function namesOf(tools: readonly Definition[]): string {
  if (tools.length === 0) return 'none';
  const shown = tools.slice(0, 30).map((tool) => tool.name);
  return `${shown.join(', ')}${tools.length > shown.length ? `, and ${tools.length - shown.length} more` : ''}`;
}
