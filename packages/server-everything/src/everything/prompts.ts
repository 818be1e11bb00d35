// The everything server's prompts: the conformance fixtures `prompts-get-*`, with argument completion.

import type { Completer, Server } from 'mcpwire/server';
import { PNG_BASE64 } from './media.ts';

/** Completes from a fixed list: the candidates that start with what was typed, case-insensitively. */
function fromList(candidates: readonly string[]): Completer {
  return (value) => candidates.filter((candidate) => candidate.toLowerCase().startsWith(value.toLowerCase()));
}

/** Registers the four conformance prompts. */
export function registerPrompts(server: Server): void {
  registerPromptsWithArguments(server);
  server.prompt(
    {
      name: 'test_simple_prompt',
      title: 'Simple Test Prompt',
      description: 'A simple prompt without arguments',
    },
    () => [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  );

  server.prompt(
    {
      name: 'test_prompt_with_image',
      title: 'Prompt With Image',
      description: 'A prompt that includes image content',
    },
    () => [
      { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  );
}

/** The prompts with arguments, each argument with a completer. */
function registerPromptsWithArguments(server: Server): void {
  server.prompt(
    {
      name: 'test_prompt_with_arguments',
      title: 'Prompt With Arguments',
      description: 'A prompt with required arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
      complete: {
        arg1: fromList(['test', 'testing', 'test-value', 'hello']),
        arg2: fromList(['world', 'wide', 'web']),
      },
    },
    ({ arg1, arg2 }) => [
      {
        role: 'user',
        content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
      },
    ],
  );

  server.prompt(
    {
      name: 'test_prompt_with_embedded_resource',
      title: 'Prompt With Embedded Resource',
      description: 'A prompt that includes an embedded resource',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
      complete: {
        resourceUri: fromList([
          'test://static-text',
          'test://static-binary',
          'test://watched-resource',
          'test://template/123/data',
        ]),
      },
    },
    ({ resourceUri }) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: String(resourceUri),
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  );
}
