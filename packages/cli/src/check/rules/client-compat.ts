// The compat/* rules: each tool checked against what each chosen client refuses (client-table.ts).
// Without --clients every client is checked and its findings are warnings; a client --clients names
// makes its findings errors, since the job asked for that client to work.

import type { CheckContext, CheckFinding } from '../check-finding.ts';
import type { CheckRuleId } from '../check-rules.ts';
import type { Definition } from '../definition.ts';
import { findingOf } from '../report.ts';
import { isObject, schemaNodes } from '../schema-walk.ts';
import { CLIENTS, lookupClient, type ClientProfile } from './client-table.ts';
import { describeNameProblem } from './name-problem.ts';

const COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;

/** Every compat/* finding, client by client in table order. */
export function checkClientCompat(definitions: readonly Definition[], context: CheckContext): CheckFinding[] {
  const clients =
    context.clients === undefined ? CLIENTS : context.clients.map((id) => lookupClient(id)!).filter(Boolean);
  const severity = context.clients === undefined ? 'warning' : 'error';
  const tools = definitions.filter((definition) => definition.kind === 'tool');
  const findings: CheckFinding[] = [];
  for (const client of clients) {
    const report = (
      rule: CheckRuleId,
      definition: Definition | undefined,
      message: string,
      fix: string,
    ): void => {
      findings.push(findingOf(rule, definition, { message: `${client.title}: ${message}`, fix, severity }));
    };
    if (client.maxTools !== undefined && tools.length > client.maxTools.value)
      report(
        'compat/tool-count',
        undefined,
        `the server lists ${tools.length} tools; a request carries at most ${client.maxTools.value}`,
        'offer fewer tools (split the server, or let the user enable groups of tools)',
      );
    for (const tool of tools) checkTool(client, tool, report);
  }
  return findings;
}

type Report = (rule: CheckRuleId, definition: Definition | undefined, message: string, fix: string) => void;

function checkTool(client: ClientProfile, tool: Definition, report: Report): void {
  const { toolName, maxDescription } = client;
  if (toolName !== undefined && !toolName.value.pattern.test(tool.name)) {
    const problem = describeNameProblem(tool.name, toolName.value.pattern);
    report(
      'compat/tool-name',
      tool,
      `refuses the tool name ${JSON.stringify(tool.name)}: it takes ${toolName.value.words}; ${problem.message}`,
      problem.fix,
    );
  }
  const description = tool.value.description;
  if (
    maxDescription !== undefined &&
    typeof description === 'string' &&
    description.length > maxDescription.value
  )
    report(
      'compat/description-length',
      tool,
      `refuses a tool description of ${description.length} characters; at most ${maxDescription.value}`,
      `shorten the description to ${maxDescription.value} characters; move details into parameter descriptions`,
    );
  const schema = tool.value.inputSchema;
  if (!isObject(schema)) return;
  if (client.refusesTopLevelCombinator !== undefined) {
    const used = COMBINATORS.filter((keyword) => schema[keyword] !== undefined);
    if (used.length > 0)
      report(
        'compat/top-level-combinator',
        tool,
        `refuses ${used.join(', ')} at the top level of inputSchema`,
        'move the alternatives into a property, or check them in the tool and describe them in the description',
      );
  }
  checkSubschemas(client, tool, schema, report);
}

function checkSubschemas(
  client: ClientProfile,
  tool: Definition,
  schema: Record<string, unknown>,
  report: Report,
): void {
  const { nodes } = schemaNodes(schema);
  const where = (pointer: string): string => (pointer === '' ? 'the root' : pointer);
  const ref = nodes.find(
    (node) =>
      node.schema.$ref !== undefined ||
      node.schema.$defs !== undefined ||
      node.schema.definitions !== undefined,
  );
  if (client.refusesRef !== undefined && ref !== undefined)
    report(
      'compat/ref',
      tool,
      `refuses $ref and $defs (at ${where(ref.pointer)} of inputSchema)`,
      'inline the referenced schemas',
    );
  const pattern = nodes.find((node) => node.schema.patternProperties !== undefined);
  if (client.refusesPatternProperties !== undefined && pattern !== undefined)
    report(
      'compat/pattern-properties',
      tool,
      `refuses patternProperties (at ${where(pattern.pointer)} of inputSchema)`,
      'declare the properties by name, or take a map as an array of {key, value}',
    );
  const formats = client.formats?.value;
  const format =
    formats === undefined
      ? undefined
      : nodes.find((node) => typeof node.schema.format === 'string' && !formats.includes(node.schema.format));
  if (format !== undefined)
    report(
      'compat/format',
      tool,
      `does not support format ${JSON.stringify(format.schema.format)} (at ${where(format.pointer)} of inputSchema); it takes ${formats!.join(', ')}`,
      'drop the format and say what the value looks like in the description',
    );
  const untyped = nodes.find(
    (node) =>
      node.schema.type === undefined &&
      !COMBINATORS.some((keyword) => node.schema[keyword] !== undefined) &&
      node.schema.$ref === undefined &&
      node.schema.enum === undefined &&
      node.schema.const === undefined,
  );
  if (client.requiresType !== undefined && untyped !== undefined)
    report(
      'compat/missing-type',
      tool,
      `requires "type" in every schema (missing at ${where(untyped.pointer)} of inputSchema)`,
      'give that schema a "type"',
    );
}
