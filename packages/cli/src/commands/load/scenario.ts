// The scenario file of `mcpwire load --scenario <file>`: JSON naming a weighted mix of tool calls,
// resource reads and prompt gets, each with argument templates (template.ts). Parsed and checked
// here, every problem a usage error naming the field. Pure.

import { UsageError } from '../../exit-code.ts';

/** One step of the mix, as the file gives it. */
export interface ScenarioStep {
  /** Relative weight: a step of weight 3 runs three times as often as one of weight 1. */
  weight: number;
  kind: 'call' | 'read' | 'get';
  /** The tool or prompt name, or the resource URI (a template). */
  target: string;
  arguments: Record<string, unknown>;
  /** Where it is in the file, for messages: `steps[2]`. */
  path: string;
  /** `--call`'s key=value operands, typed by the tool's schema once it is known (call-arguments.ts). */
  pairs?: string[];
}

/** The most steps a scenario may have. */
const MAX_STEPS = 1000;
const STEP_KEYS = new Set(['weight', 'call', 'read', 'get', 'arguments']);

/** An example for the help and the errors. */
export const SCENARIO_EXAMPLE =
  '{"steps":[{"weight":3,"call":"echo","arguments":{"message":"hi {{i}}"}},' +
  '{"weight":1,"read":"file:///x/{{random 1 100}}"},{"get":"greeting","arguments":{"name":"{{pick ada grace}}"}}]}';

/** Parses the scenario `text` read from `file`; UsageError naming the field that is wrong. */
export function parseScenario(text: string, file: string): ScenarioStep[] {
  const refuse = (why: string): UsageError =>
    new UsageError(`--scenario ${file}: ${why} (a scenario looks like ${SCENARIO_EXAMPLE})`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw refuse(`not JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw refuse('expected a JSON object with "steps"');
  const steps = value.steps;
  if (!Array.isArray(steps) || steps.length === 0)
    throw refuse('"steps": expected an array of one step or more');
  if (steps.length > MAX_STEPS) throw refuse(`"steps": at most ${MAX_STEPS} steps, received ${steps.length}`);
  const unknown = Object.keys(value).filter((key) => key !== 'steps');
  if (unknown.length > 0) throw refuse(`unknown field ${JSON.stringify(unknown[0])} (only "steps")`);
  return steps.map((step: unknown, index) => {
    const problem = parseStep(step, `steps[${index}]`);
    if (typeof problem === 'string') throw refuse(problem);
    return problem;
  });
}

/** The step, or the problem with it (a message naming the field). */
function parseStep(step: unknown, path: string): ScenarioStep | string {
  if (!isObject(step)) return `${path}: expected an object with "call", "read" or "get"`;
  const unknown = Object.keys(step).find((key) => !STEP_KEYS.has(key));
  if (unknown !== undefined)
    return `${path}.${unknown}: not a step field (a step has weight, one of call/read/get, and arguments)`;
  const kinds = (['call', 'read', 'get'] as const).filter((kind) => step[kind] !== undefined);
  if (kinds.length !== 1)
    return `${path}: expected exactly one of "call" (a tool), "read" (a resource URI) or "get" (a prompt), found ${kinds.length === 0 ? 'none' : kinds.join(' and ')}`;
  const kind = kinds[0]!;
  const target = step[kind];
  if (typeof target !== 'string' || target === '') return `${path}.${kind}: expected a non-empty string`;
  const weight = step.weight ?? 1;
  if (typeof weight !== 'number' || !(weight > 0) || !Number.isFinite(weight))
    return `${path}.weight: expected a number above 0, received ${JSON.stringify(weight)}`;
  const args = step.arguments ?? {};
  if (!isObject(args)) return `${path}.arguments: expected an object`;
  if (kind === 'read' && step.arguments !== undefined)
    return `${path}.arguments: a read takes none (put the variables in the URI)`;
  if (kind === 'get') {
    const key = Object.keys(args).find((name) => typeof args[name] !== 'string');
    if (key !== undefined) return `${path}.arguments.${key}: a prompt argument is a string`;
  }
  return { weight, kind, target, arguments: args, path };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
