// The things a person can do from the `mcpwire connect` menu: call a tool, read a resource, get a
// prompt, complete an argument, list everything. Each asks what it needs and shows the result.

import { isCancel, log, select, text } from '@clack/prompts';
import { RequestCancelledError, type Client } from 'mcpwire/client';
import type { Colours } from '../../terminal/colours.ts';
import {
  formatCallResult,
  formatCompletion,
  formatPromptResult,
  formatPrompts,
  formatReadResult,
  formatResources,
  formatTemplates,
  formatTools,
} from '../../terminal/result-format.ts';
import type { CallActivity } from './call-activity.ts';
import { toTerminalText } from '../../terminal/terminal-text.ts';
import { pick } from './pick.ts';
import { askPromptArguments } from './prompt-arguments.ts';
import { CANCELLED, promptForObject } from './schema-prompts.ts';

/** What every action works with. */
export interface ActionContext {
  client: Client;
  activity: CallActivity;
  colours: Colours;
}

/** Picks a tool, asks for its arguments, calls it with a progress display; Ctrl-C cancels the call. */
export async function callTool({ client, activity, colours }: ActionContext): Promise<void> {
  const tools = await client.listAllTools();
  const name = await pick(
    'Tool (type to filter)',
    'tool',
    tools.map((tool) => ({ value: tool.name, name: tool.name, description: firstLine(tool.description) })),
  );
  if (name === undefined) return;
  const tool = tools.find((candidate) => candidate.name === name)!;
  const args = await promptForObject(tool.inputSchema);
  if (args === CANCELLED) return;
  const controller = new AbortController();
  const cancel = (): void => controller.abort('cancelled with Ctrl-C');
  process.on('SIGINT', cancel);
  const shownName = toTerminalText(name);
  activity.start(`Calling ${shownName}`, cancel);
  try {
    const result = await client.callTool(
      { name, arguments: args },
      { signal: controller.signal, onProgress: (update) => activity.progress(update) },
    );
    activity.stop();
    const shown = formatCallResult(result, colours).trimEnd() || colours.dim('(no content)');
    if (result.isError === true) log.error(`${shownName} reported an error:\n${shown}`);
    else log.success(`${shownName}:\n${shown}`);
  } catch (error) {
    activity.stop();
    if (!(error instanceof RequestCancelledError)) throw error;
    log.warn(`Cancelled ${shownName}: the server was sent notifications/cancelled`);
  } finally {
    process.removeListener('SIGINT', cancel);
  }
}

/** Picks a resource (or a template, then its variables, or types a URI) and shows its contents. */
export async function readResource({ client, colours }: ActionContext): Promise<void> {
  const [resources, templates] = await Promise.all([
    client.listAllResources(),
    client.listAllResourceTemplates(),
  ]);
  const TYPE = '\u0000type';
  const choice = await pick('Resource (type to filter)', 'resource', [
    ...resources.map((resource) => ({ value: resource.uri, name: resource.uri, description: resource.name })),
    ...templates.map((template) => ({
      value: template.uriTemplate,
      name: template.uriTemplate,
      description: 'template',
    })),
    { value: TYPE, name: 'Type a URI...' },
  ]);
  if (choice === undefined) return;
  const uri = choice === TYPE ? await askText('URI') : await fillTemplate(choice);
  if (uri === undefined) return;
  const result = await client.readResource({ uri });
  log.success(`${toTerminalText(uri)}:\n${formatReadResult(result, colours).trimEnd()}`);
}

/** Picks a prompt, asks for its arguments (with the server's completions) and shows its messages. */
export async function getPrompt({ client, colours }: ActionContext): Promise<void> {
  const prompts = await client.listAllPrompts();
  const name = await pick(
    'Prompt (type to filter)',
    'prompt',
    prompts.map((prompt) => ({
      value: prompt.name,
      name: prompt.name,
      description: firstLine(prompt.description),
    })),
  );
  if (name === undefined) return;
  const prompt = prompts.find((candidate) => candidate.name === name)!;
  const args = await askPromptArguments(client, prompt);
  if (args === undefined) return;
  const result = await client.getPrompt({ name, arguments: args });
  log.success(`${toTerminalText(name)}:\n${formatPromptResult(result, colours).trimEnd()}`);
}

/** Picks a prompt or template argument and a partial value, and shows the server's suggestions. */
export async function completeArgument({ client, colours }: ActionContext): Promise<void> {
  const [prompts, templates] = await Promise.all([
    client.serverCapabilities?.prompts ? client.listAllPrompts() : [],
    client.serverCapabilities?.resources ? client.listAllResourceTemplates() : [],
  ]);
  const refs = [
    ...prompts.flatMap((prompt) =>
      (prompt.arguments ?? []).map((argument) => ({
        ref: { type: 'ref/prompt' as const, name: prompt.name },
        argument: argument.name,
      })),
    ),
    ...templates.flatMap((template) =>
      expressionsOf(template.uriTemplate).map(({ variable }) => ({
        ref: { type: 'ref/resource' as const, uri: template.uriTemplate },
        argument: variable,
      })),
    ),
  ];
  if (refs.length === 0) return log.info('Nothing here takes arguments to complete.');
  const picked = await select({
    message: 'Argument',
    options: refs.map((item, index) => ({
      value: index,
      label: `${toTerminalText('name' in item.ref ? item.ref.name : item.ref.uri)} ${colours.dim('>')} ${toTerminalText(item.argument)}`,
    })),
    maxItems: 10,
  });
  if (isCancel(picked)) return;
  const value = await askText('Typed so far', { isRequired: false });
  if (value === undefined) return;
  const { ref, argument } = refs[picked]!;
  const result = await client.complete({ ref, argument: { name: argument, value } });
  log.success(formatCompletion(result, colours).trimEnd() || colours.dim('(no suggestions)'));
}

/** Columns clack's log puts before each line ("│  "). */
const LOG_GUTTER = 3;

/** Shows every tool, resource, template and prompt, wrapped to the terminal and cut as `list` does. */
export async function listEverything({ client, colours }: ActionContext): Promise<void> {
  const capabilities = client.serverCapabilities ?? {};
  const layout = { width: Math.max(1, (process.stdout.columns || 80) - LOG_GUTTER), maxLines: 4 };
  if (capabilities.tools)
    log.message(
      `${colours.bold('Tools')}\n${formatTools(await client.listAllTools(), colours, layout).trimEnd()}`,
    );
  if (capabilities.resources) {
    log.message(
      `${colours.bold('Resources')}\n${formatResources(await client.listAllResources(), colours, layout).trimEnd()}`,
    );
    log.message(
      `${colours.bold('Resource templates')}\n${formatTemplates(await client.listAllResourceTemplates(), colours, layout).trimEnd()}`,
    );
  }
  if (capabilities.prompts)
    log.message(
      `${colours.bold('Prompts')}\n${formatPrompts(await client.listAllPrompts(), colours, layout).trimEnd()}`,
    );
}

/** Resolves with the text typed, '' for an optional field left empty, or undefined when cancelled. */
async function askText(
  message: string,
  options: { isRequired?: boolean; hint?: string | undefined } = {},
): Promise<string | undefined> {
  const isRequired = options.isRequired ?? true;
  const answer = await text({
    message: `${message}${isRequired ? '' : ' (optional)'}${options.hint ? ` - ${options.hint}` : ''}`,
    validate: (value) => (isRequired && (value ?? '') === '' ? 'Required' : undefined),
  });
  return isCancel(answer) ? undefined : (answer ?? '');
}

/** Asks for each `{variable}` of a URI template (RFC 6570 operators dropped) and fills it in. */
async function fillTemplate(template: string): Promise<string | undefined> {
  let uri = template;
  for (const { expression, variable } of expressionsOf(template)) {
    const value = await askText(toTerminalText(variable));
    if (value === undefined) return undefined;
    // The expression's own text, replaced as a string: a server's template never becomes a pattern.
    const at = uri.indexOf(expression);
    if (at >= 0) uri = uri.slice(0, at) + value + uri.slice(at + expression.length);
  }
  return uri;
}

/** The `{...}` expressions of a template with the variable each names, by one linear scan. */
function expressionsOf(template: string): Array<{ expression: string; variable: string }> {
  const found: Array<{ expression: string; variable: string }> = [];
  for (let open = template.indexOf('{'); open >= 0; open = template.indexOf('{', open + 1)) {
    const close = template.indexOf('}', open + 1);
    if (close < 0) break;
    const inner = template.slice(open + 1, close);
    if (inner.includes('{')) continue;
    const variable = inner.replace(/^[+#./;?&]/, '').replace(/\*$/, '');
    if (variable === '' || variable.includes(',') || variable.includes('*')) continue;
    found.push({ expression: template.slice(open, close + 1), variable });
    open = close;
  }
  return found;
}

/** A server's description as a one-line hint, escaped. */
function firstLine(text: string | undefined): string {
  return toTerminalText((text ?? '').split('\n')[0]!.slice(0, 60));
}
