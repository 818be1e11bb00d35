// `mcpwire load --call <tool> key=value...`: the operands typed by the tool's input schema as
// `mcpwire call` types them, except a value with a placeholder, which stays a template (checked
// against the schema with its placeholders filled in once).

import type { Client } from 'mcpwire/client';
import { UsageError } from '../../exit-code.ts';
import { findTool } from '../../target/server-lookup.ts';
import { parseToolArguments } from '../../arguments/tool-arguments.ts';
import { numericKeysOf } from './load-steps.ts';
import type { LoadRandom } from './random.ts';
import type { ScenarioStep } from './scenario.ts';
import { compileValue, hasPlaceholder, TemplateError } from './template.ts';

/**
 * The arguments of `step` (a --call step with `pairs`): plain values typed, templates as written.
 * UsageError or ArgumentsError (exit 2) for an unknown tool, a bad template or arguments that break
 * the schema.
 */
export async function callArguments(
  client: Client,
  step: ScenarioStep,
  random: LoadRandom,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const tool = await findTool(client, step.target, signal);
  const numericKeys = numericKeysOf(tool.inputSchema);
  const plain: string[] = [];
  const templates: Record<string, string> = {};
  const samples: Record<string, unknown> = {};
  for (const pair of step.pairs ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0 || !hasPlaceholder(pair.slice(at + 1))) {
      plain.push(pair);
      continue;
    }
    const key = pair.slice(0, at);
    const value = pair.slice(at + 1);
    try {
      const compiled = compileValue(value, random, { isNumeric: numericKeys.has(key) });
      samples[key] = 'build' in compiled ? compiled.build(0, 0) : compiled.constant;
    } catch (error) {
      if (error instanceof TemplateError) throw new UsageError(`--call argument ${key}: ${error.message}`);
      throw error;
    }
    templates[key] = value;
  }
  // The samples stand in for the templates while the plain pairs are typed and everything is checked.
  return { ...parseToolArguments(plain, tool.inputSchema, samples), ...templates };
}
