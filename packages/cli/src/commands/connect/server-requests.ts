// Answers to the server's requests during `mcpwire connect`, from the person at the terminal:
// elicitation (a form from requestedSchema, or a URL to open) and sampling (they write the reply);
// roots/list answered with the folder connect runs in.

import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { confirm, isCancel, log, text } from '@clack/prompts';
import { RpcError, type ClientHandlers } from 'mcpwire/client';
import type { ElicitResult } from 'mcpwire';
import type { Colours } from '../../terminal/colours.ts';
import { formatBlock } from '../../terminal/result-format.ts';
import { toTerminalText } from '../../terminal/terminal-text.ts';
import type { CallActivity } from './call-activity.ts';
import { CANCELLED, promptForObject } from './schema-prompts.ts';

/** The SAMP-11 code for a sampling request the user rejected. */
const USER_REJECTED = -1;

/**
 * Handlers that put each server request to the person, with `activity` moved out of the way; and
 * `roots/list` answered with the current folder, the one root connect declares (ROOT-1).
 */
export function createInteractiveHandlers(activity: CallActivity, colours: Colours): ClientHandlers {
  // The folder connect was started in, and nothing more: connect never changes it, so it never
  // sends notifications/roots/list_changed.
  const cwd = process.cwd();
  const roots = [{ uri: pathToFileURL(cwd).href, name: basename(cwd) || cwd }];
  return {
    roots: () => roots,
    elicitation: (params) =>
      activity.aside(async (): Promise<ElicitResult> => {
        if (params.mode === 'url') {
          log.warn(
            `The server asks you to open ${colours.cyan(toTerminalText(params.url))}\n${toTerminalText(params.message, { keepNewlines: true })}`,
          );
          const isDone = await confirm({ message: 'Did you complete it there?' });
          return isCancel(isDone) ? { action: 'cancel' } : { action: isDone ? 'accept' : 'decline' };
        }
        log.warn(`The server asks: ${toTerminalText(params.message, { keepNewlines: true })}`);
        const answers = await promptForObject(params.requestedSchema);
        if (answers === CANCELLED) return { action: 'cancel' };
        const isSent = await confirm({ message: 'Send these answers to the server?' });
        if (isCancel(isSent)) return { action: 'cancel' };
        return isSent
          ? { action: 'accept', content: answers as NonNullable<ElicitResult['content']> }
          : { action: 'decline' };
      }),
    sampling: (params) =>
      activity.aside(async () => {
        const lines = params.messages.map(
          (message) =>
            `${colours.bold(`${toTerminalText(message.role)}:`)} ${describeContent(message.content, colours)}`,
        );
        if (params.systemPrompt)
          lines.unshift(
            colours.dim(`system: ${toTerminalText(params.systemPrompt, { keepNewlines: true })}`),
          );
        log.warn(
          `The server asks for a model's reply (sampling, at most ${Number(params.maxTokens)} tokens):\n${lines.join('\n')}`,
        );
        const reply = await text({
          message: 'Reply as the model (empty to decline)',
          placeholder: 'the reply',
        });
        if (isCancel(reply) || reply === undefined || reply.trim() === '')
          throw new RpcError(USER_REJECTED, 'The user declined the sampling request');
        return {
          role: 'assistant',
          content: { type: 'text', text: reply },
          model: 'person-at-mcpwire-connect',
          stopReason: 'endTurn',
        };
      }),
  };
}

function describeContent(content: unknown, colours: Colours): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((block) => {
      const type = (block as { type?: string }).type;
      return type === 'text' || type === 'image' || type === 'audio'
        ? formatBlock(block as Parameters<typeof formatBlock>[0], colours)
        : colours.dim(`[${toTerminalText(String(type ?? 'content'))}]`);
    })
    .join(' ');
}
