// The everything server's tools that change its own lists at runtime, so connected clients receive
// notifications/tools/list_changed and notifications/prompts/list_changed.

import type { Registration, Server } from 'mcpwire/server';

const NO_ARGUMENTS = { type: 'object', properties: {} } as const;

/**
 * Registers `test_trigger_tool_change` and `test_trigger_prompt_change`. Each call toggles one extra
 * registration (`test_dynamic_tool` / `test_dynamic_prompt`): added if absent, removed if present, so
 * every call is a real change and produces exactly one list_changed notification.
 */
export function registerListChangeTools(server: Server): void {
  let dynamicTool: Registration<unknown> | undefined;
  let dynamicPrompt: Registration<unknown> | undefined;

  server.tool(
    {
      name: 'test_trigger_tool_change',
      description: 'Adds or removes test_dynamic_tool, so clients get notifications/tools/list_changed.',
      inputSchema: NO_ARGUMENTS,
    },
    () => {
      if (dynamicTool) {
        dynamicTool.remove();
        dynamicTool = undefined;
        return 'Tool list changed: removed test_dynamic_tool.';
      }
      dynamicTool = server.tool(
        {
          name: 'test_dynamic_tool',
          description: 'Registered at runtime by test_trigger_tool_change.',
          inputSchema: NO_ARGUMENTS,
        },
        () => 'Dynamic tool called.',
      );
      return 'Tool list changed: added test_dynamic_tool.';
    },
  );

  server.tool(
    {
      name: 'test_trigger_prompt_change',
      description: 'Adds or removes test_dynamic_prompt, so clients get notifications/prompts/list_changed.',
      inputSchema: NO_ARGUMENTS,
    },
    () => {
      if (dynamicPrompt) {
        dynamicPrompt.remove();
        dynamicPrompt = undefined;
        return 'Prompt list changed: removed test_dynamic_prompt.';
      }
      dynamicPrompt = server.prompt(
        { name: 'test_dynamic_prompt', description: 'Registered at runtime by test_trigger_prompt_change.' },
        () => 'This prompt was added at runtime.',
      );
      return 'Prompt list changed: added test_dynamic_prompt.';
    },
  );
}
