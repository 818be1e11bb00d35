// Asking a person for a prompt's arguments in `mcpwire connect`: where the server declares
// `completions`, each argument offers the server's suggestions (completion/complete, ref/prompt, asked
// once with an empty value and the arguments so far) as choices; typing another value stays possible.

import { isCancel, select, text } from '@clack/prompts';
import type { Client } from 'mcpwire/client';
import type { Prompt } from 'mcpwire';
import { toTerminalText } from '../../terminal/terminal-text.ts';

const TYPE = Symbol('type');
const SKIP = Symbol('skip');

/** Resolves with the arguments (optional ones left out are absent), or undefined when cancelled. */
export async function askPromptArguments(
  client: Client,
  prompt: Prompt,
): Promise<Record<string, string> | undefined> {
  const args: Record<string, string> = {};
  for (const argument of prompt.arguments ?? []) {
    const isRequired = argument.required === true;
    const message = toTerminalText(
      `${argument.name}${isRequired ? '' : ' (optional)'}${argument.description ? ` - ${argument.description.split('\n')[0]!.slice(0, 60)}` : ''}`,
    );
    const suggestions = await suggestionsFor(client, prompt.name, argument.name, args);
    let value: string | typeof SKIP | typeof TYPE | undefined = TYPE;
    if (suggestions.length > 0) {
      const picked = await select<string | symbol>({
        message,
        options: [
          ...suggestions.map((suggestion) => ({ value: suggestion, label: toTerminalText(suggestion) })),
          { value: TYPE, label: 'Type a value...' },
          ...(isRequired ? [] : [{ value: SKIP, label: '(leave out)' }]),
        ],
        maxItems: 10,
      });
      if (isCancel(picked)) return undefined;
      value = picked as string | typeof SKIP | typeof TYPE;
    }
    if (value === TYPE) value = await askText(message, isRequired);
    if (value === undefined) return undefined;
    if (value !== SKIP && value !== '') args[argument.name] = value;
  }
  return args;
}

/** The server's values for an empty prefix; none when it has no `completions` or the request fails. */
async function suggestionsFor(
  client: Client,
  name: string,
  argument: string,
  known: Record<string, string>,
): Promise<string[]> {
  if (client.serverCapabilities?.completions === undefined) return [];
  try {
    const result = await client.complete({
      ref: { type: 'ref/prompt', name },
      argument: { name: argument, value: '' },
      ...(Object.keys(known).length === 0 ? {} : { context: { arguments: { ...known } } }),
    });
    // A list to choose from, not to scroll through: the spec caps a result at 100 values.
    return result.completion.values.filter((value) => typeof value === 'string').slice(0, 100);
  } catch {
    // Suggestions are a help: without them the argument is typed, as before.
    return [];
  }
}

async function askText(message: string, isRequired: boolean): Promise<string | undefined> {
  const answer = await text({
    message,
    validate: (value) => (isRequired && (value ?? '') === '' ? 'Required' : undefined),
  });
  return isCancel(answer) ? undefined : (answer ?? '');
}
