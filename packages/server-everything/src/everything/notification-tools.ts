// The everything server's tools that take time and talk while they work: logging, progress, slow
// work that honours cancellation, and the stream-reconnection fixture.

import { setTimeout as delay } from 'node:timers/promises';
import type { Server } from 'mcpwire/server';

const NO_ARGUMENTS = { type: 'object', properties: {} } as const;

/** Registers the logging, progress and long-running tools. */
export function registerNotificationTools(server: Server): void {
  registerLoggingTools(server);
  registerProgressTools(server);
  server.tool(
    {
      name: 'test_reconnection',
      description:
        'Completes after a short pause; over Streamable HTTP it is the stream-reconnection fixture (SEP-1699).',
      inputSchema: NO_ARGUMENTS,
    },
    async (_args, ctx) => {
      // SEP-1699: over Streamable HTTP at 2025-11-25 the client gets the priming event, then the
      // connection closes; it reconnects with Last-Event-ID and finds the result there.
      ctx.disconnectForPolling();
      await delay(100, undefined, { signal: ctx.signal });
      return 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.';
    },
  );
}

function registerLoggingTools(server: Server): void {
  server.tool(
    {
      name: 'test_tool_with_logging',
      description: 'Tests tool that emits log messages during execution',
      inputSchema: NO_ARGUMENTS,
    },
    async (_args, ctx) => {
      // Three info messages ~50 ms apart (tools-call-with-logging), plus one debug and one error so the
      // threshold scenario sees levels on both sides of "error".
      await ctx.log('info', 'Tool execution started', 'everything');
      await ctx.log('debug', 'Debug detail: no arguments to process', 'everything');
      await delay(50, undefined, { signal: ctx.signal });
      await ctx.log('info', 'Tool processing data', 'everything');
      await delay(50, undefined, { signal: ctx.signal });
      await ctx.log('error', 'Simulated error-level entry (nothing failed)', 'everything');
      await ctx.log('info', 'Tool execution completed', 'everything');
      return 'Tool with logging executed successfully';
    },
  );
  server.tool(
    {
      name: 'test_logging_tool',
      description: 'Logs one info message, which the client receives only if its log level lets it through.',
      inputSchema: NO_ARGUMENTS,
    },
    async (_args, ctx) => {
      await ctx.log('info', 'test_logging_tool ran', 'everything');
      return 'Logging tool executed.';
    },
  );
}

function registerProgressTools(server: Server): void {
  server.tool(
    {
      name: 'test_tool_with_progress',
      description: 'Tests tool that reports progress notifications',
      inputSchema: NO_ARGUMENTS,
    },
    async (_args, ctx) => {
      // 0, 50, 100 of 100, ~50 ms apart; sendProgress is a no-op when no progressToken was given.
      for (const progress of [0, 50, 100]) {
        if (progress > 0) await delay(50, undefined, { signal: ctx.signal });
        await ctx.sendProgress(progress, { total: 100, message: `Completed step ${progress} of 100` });
      }
      const token = ctx.meta.progressToken;
      return token === undefined ? 'Progress tool completed (no progressToken was given).' : String(token);
    },
  );
  server.tool(
    {
      name: 'test_tool_slow',
      description:
        'Sleeps for durationMs (default 5000) in 100 ms steps, reporting progress; stops at once when cancelled.',
      inputSchema: {
        type: 'object',
        properties: {
          durationMs: {
            type: 'integer',
            minimum: 0,
            maximum: 600000,
            description: 'How long to work, in milliseconds',
          },
        },
      },
    },
    async (args, ctx) => {
      const durationMs = typeof args.durationMs === 'number' ? args.durationMs : 5000;
      for (let elapsed = 0; elapsed < durationMs; elapsed += 100) {
        // Rejects with an AbortError as soon as the request is cancelled; no response is then sent.
        await delay(Math.min(100, durationMs - elapsed), undefined, { signal: ctx.signal });
        await ctx.sendProgress(Math.min(elapsed + 100, durationMs), { total: durationMs });
      }
      return `Slept for ${durationMs} ms.`;
    },
  );
  server.tool(
    {
      name: 'test_tool_fast',
      description: 'Completes immediately with a text response.',
      inputSchema: NO_ARGUMENTS,
    },
    () => 'Fast tool completed.',
  );
}
