// The server the HTTP transport tests talk to: only the tools, resource and prompt those tests use,
// each as small as their assertions allow (the full reference server is @mcpwire/server-everything).

import { setTimeout as delay } from 'node:timers/promises';
import type { ElicitRequestFormParams } from '../../src/protocol/types/elicitation.ts';
import { Server, type Registration, type RequestContext } from '../../src/server/index.ts';

/** Pause between progress steps, so a client can drop the connection while the tool still runs. */
const STEP_MS = 20;

/**
 * Creates a fresh fixture server (no state shared between calls). Tests may register more tools on
 * it.
 */
export function createFixtureServer(): Server {
  const server = new Server({ name: 'mcpwire-fixture', version: '0.0.0' });
  registerAnsweringTools(server);
  registerStreamingTools(server);
  registerClientRequestTools(server);
  registerToolChange(server);
  server.resource(
    { uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain' },
    () => 'This is the content of the static text resource.',
  );
  // Declares `prompts`, so a batched prompts/list and a promptsListChanged listen are served.
  server.prompt({ name: 'test_simple_prompt' }, () => 'This is a simple prompt for testing.');
  return server;
}

/** Tools that answer at once: `echo`, fixed text, and an argument mirrored into a header. */
function registerAnsweringTools(server: Server): void {
  server.tool(
    { name: 'echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } },
    (args) => (typeof args.message === 'string' ? args.message : ''),
  );
  server.tool({ name: 'test_simple_text' }, () => 'This is a simple text response for testing.');
  server.tool(
    {
      name: 'test_custom_header',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
        required: ['region'],
      },
    },
    (args) => `Region: ${String(args.region)}`,
  );
}

/** Tools whose messages arrive over time: progress 0, 50, 100, and the SEP-1699 polling fixture. */
function registerStreamingTools(server: Server): void {
  server.tool({ name: 'test_tool_with_progress' }, async (_args, ctx) => {
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await delay(STEP_MS, undefined, { signal: ctx.signal });
      await ctx.sendProgress(progress, { total: 100 });
    }
    return String(ctx.meta.progressToken ?? 'no progressToken');
  });
  server.tool({ name: 'test_reconnection' }, async (_args, ctx) => {
    ctx.disconnectForPolling();
    // The result must follow the closed connection, to be found by the client's GET (SEP-1699).
    await delay(STEP_MS, undefined, { signal: ctx.signal });
    return 'Reconnection test completed successfully.';
  });
}

async function sampleText(ctx: RequestContext, prompt: string): Promise<string> {
  const { content } = await ctx.sample({
    messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
    maxTokens: 100,
  });
  const first = Array.isArray(content) ? content[0] : content;
  return `LLM response: ${first?.type === 'text' ? first.text : '(no text)'}`;
}

/** The form `test_elicitation` asks the user to fill in. */
const ACCOUNT_FORM: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: { username: { type: 'string' }, email: { type: 'string' } },
  required: ['username', 'email'],
};

/** Tools that ask the client while they run; `test_missing_capability` needs sampling (-32021 without). */
function registerClientRequestTools(server: Server): void {
  server.tool(
    {
      name: 'test_sampling',
      inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
    },
    (args, ctx) => sampleText(ctx, String(args.prompt)),
  );
  server.tool({ name: 'test_missing_capability' }, (_args, ctx) => sampleText(ctx, 'One word.'));
  server.tool(
    {
      name: 'test_elicitation',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
    async (args, ctx) => {
      const message = String(args.message);
      const { action, content } = await ctx.elicit({ mode: 'form', message, requestedSchema: ACCOUNT_FORM });
      return `User response: ${action} ${JSON.stringify(content ?? {})}`;
    },
  );
}

/** `test_trigger_tool_change` adds or removes `test_dynamic_tool`: one tools/list_changed per call. */
function registerToolChange(server: Server): void {
  let dynamic: Registration<unknown> | undefined;
  server.tool({ name: 'test_trigger_tool_change' }, () => {
    if (dynamic) {
      dynamic.remove();
      dynamic = undefined;
      return 'Removed test_dynamic_tool.';
    }
    dynamic = server.tool({ name: 'test_dynamic_tool' }, () => 'Dynamic tool called.');
    return 'Added test_dynamic_tool.';
  });
}
