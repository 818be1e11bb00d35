// Tools both eras' task tests register: a form elicitation, a tool that ignores cancellation and one
// that honours it, both held until the test releases them.

import type { Server } from '../../src/server/server.ts';

/** A form elicitation asking for a confirmation. */
export const CONFIRM = {
  mode: 'form',
  message: 'Sure?',
  requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
} as const;

/** What a test holds of the held tools: release them, and see the stubborn one start and finish. */
export interface HeldTools {
  release: () => void;
  stubbornStarted: Promise<void>;
  stubbornDone: Promise<void>;
}

/**
 * Registers `stubborn` (ignores cancellation: it completes once released, whatever happened to its
 * task meanwhile) and `held` (completes once released, or rejects when its request is cancelled).
 */
export function registerHeldTools(server: Server): HeldTools {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let markDone!: () => void;
  let markStarted!: () => void;
  const stubbornDone = new Promise<void>((resolve) => (markDone = resolve));
  const stubbornStarted = new Promise<void>((resolve) => (markStarted = resolve));
  server.tool({ name: 'stubborn', execution: { taskSupport: 'optional' } }, async () => {
    markStarted();
    await released;
    markDone();
    return 'finished anyway';
  });
  server.tool({ name: 'held', execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    await Promise.race([
      released,
      new Promise((_resolve, reject) =>
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error)),
      ),
    ]);
    return 'held done';
  });
  return { release, stubbornStarted, stubbornDone };
}
