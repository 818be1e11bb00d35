// completion/complete (COMP-*): routes a prompt or resource-template reference to its completer and
// shapes the answer (at most 100 values, with total and hasMore).

import type { JsonObject } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import type { CompleteRequestParams, CompleteResult } from '../protocol/types/index.ts';
import type { RequestContext } from './context.ts';
import type { Prompts } from './prompts.ts';
import type { Resources } from './resources.ts';

/** COMP-4: a result carries at most this many values. */
export const MAX_COMPLETION_VALUES = 100;

/**
 * `completion/complete`. `ref/prompt` names a prompt, `ref/resource` a registered URI template
 * (COMP-2). A malformed request, an unknown ref or an unknown argument is -32602 (COMP-5); an
 * argument without a completer gets no values. Values beyond the first 100 are cut, and `total`
 * and `hasMore` say so.
 */
export async function complete(
  params: CompleteRequestParams,
  ctx: RequestContext,
  server: { prompts: Prompts; resources: Resources },
): Promise<CompleteResult> {
  const ref = readObject(params.ref, 'ref');
  const { name, value } = readObject(params.argument, 'argument');
  if (typeof name !== 'string') {
    throw invalid(`expected "argument.name" to be a string, received ${describe(name)}`);
  }
  if (typeof value !== 'string') {
    throw invalid(`expected "argument.value" to be a string, received ${describe(value)}`);
  }
  const argument = { name, value };
  const context = { arguments: readContextArguments(params.context) };
  let values: string[];
  switch (ref.type) {
    case 'ref/prompt':
      if (typeof ref.name !== 'string') {
        throw invalid(`expected "ref.name" to be a string, received ${describe(ref.name)}`);
      }
      values = await server.prompts.completeArgument(ref.name, argument, context, ctx);
      break;
    case 'ref/resource':
      if (typeof ref.uri !== 'string') {
        throw invalid(`expected "ref.uri" to be a string, received ${describe(ref.uri)}`);
      }
      values = await server.resources.completeArgument(ref.uri, argument, context, ctx);
      break;
    default:
      throw invalid(`unknown ref type ${JSON.stringify(ref.type)}; expected "ref/prompt" or "ref/resource"`);
  }
  return toResult(values);
}

function toResult(values: unknown): CompleteResult {
  if (!Array.isArray(values) || !values.every((item) => typeof item === 'string')) {
    // A plain Error: the peer answers -32603 and keeps this for the logs.
    throw new Error('A completer returned something other than an array of strings');
  }
  const total = values.length;
  return {
    completion: {
      values: values.slice(0, MAX_COMPLETION_VALUES),
      total,
      hasMore: total > MAX_COMPLETION_VALUES,
    },
  };
}

function readObject(value: unknown, field: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`expected "${field}" to be an object, received ${describe(value)}`);
  }
  return value as JsonObject;
}

/** COMP-3: `context.arguments` holds the already-resolved arguments, all strings. */
function readContextArguments(context: unknown): Record<string, string> {
  if (context === undefined) return {};
  const { arguments: args } = readObject(context, 'context');
  if (args === undefined) return {};
  const entries = Object.entries(readObject(args, 'context.arguments'));
  for (const [key, item] of entries) {
    if (typeof item !== 'string') {
      throw invalid(`expected "context.arguments.${key}" to be a string, received ${describe(item)}`);
    }
  }
  // fromEntries defines own properties, so a key such as "__proto__" cannot reach the prototype.
  return Object.fromEntries(entries) as Record<string, string>;
}

function invalid(problem: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid params for "completion/complete": ${problem}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}
