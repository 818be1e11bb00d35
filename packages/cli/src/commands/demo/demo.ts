// `mcpwire demo`: a host (the library Client, standing in for Cursor or Claude Desktop) drives the
// GitHub-like server through the founding scenario and every message on the wire is printed. The
// steps live in ./demo/; this file picks the era and transport, runs them in order and sums up.

import { coloursFor } from '../../terminal/colours.ts';
import { DemoPrinter } from '../../terminal/demo-printer.ts';
import { checkAuthorization } from './auth-checks.ts';
import { Checks } from './checks.ts';
import { startHttpServer, startStdioServer, type DemoServer } from './connections.ts';
import { cancellationStep, shutdownStep } from './ending-steps.ts';
import { createDemoHost } from './host.ts';
import { elicitationStep, resourceUpdateStep, samplingStep } from './input-steps.ts';
import { showVersionNegotiation } from './negotiation.ts';
import { listChangeStep, progressStep } from './change-steps.ts';
import { connectStep, createIssueStep, toolsStep } from './steps.ts';
import type { StepContext } from './step-context.ts';

/** What the demo is asked to show. */
export interface DemoOptions {
  /** The protocol era: `handshake` (default) is the initialize handshake; `stateless` is stateless 2026-07-28. */
  era?: 'handshake' | 'stateless';
  /** Streamable HTTP (the server in this process, on a free loopback port) instead of stdio. */
  isHttp?: boolean;
  /** One line per message, the JSON as sent; the story as `#` lines. */
  isRaw?: boolean;
  /** With isHttp: the server protected by OAuth (a development authorization server, auto-approving). */
  isAuth?: boolean;
}

/** The story after the version negotiation, in order, on one connection. */
const STEPS = [
  connectStep,
  toolsStep,
  createIssueStep,
  listChangeStep,
  progressStep,
  samplingStep,
  resourceUpdateStep,
  elicitationStep,
  cancellationStep,
  shutdownStep,
];

/**
 * Runs the demo to stdout and resolves with the command's exit code: 0 when every check passed
 * (each step checks that the wire showed what the protocol requires), 1 otherwise. A step that
 * throws is a failed check; the steps after it are skipped, and the server is stopped either way.
 */
export async function runDemo(options: DemoOptions = {}): Promise<number> {
  const era = options.era ?? 'handshake';
  const isRaw = options.isRaw === true;
  const printer = new DemoPrinter({
    write: (text) => process.stdout.write(text),
    colours: coloursFor(process.stdout),
    width: process.stdout.columns ?? 100,
    isRaw,
  });
  const checks = new Checks(printer);
  const server =
    options.isHttp === true
      ? await startHttpServer(printer, { isRaw, isAuth: options.isAuth === true })
      : startStdioServer(printer);
  const host = createDemoHost(era, printer);
  const context: StepContext = { era, host, printer, checks, server };
  printer.line(introduction(era, server, isRaw));
  try {
    await showVersionNegotiation(era, { printer, checks, server });
    // Its first request met the 401: the whole flow is on the wire by now.
    if (options.isAuth === true) checkAuthorization(printer, checks, server);
    for (const step of STEPS) await step(context);
  } catch (error) {
    checks.fail(`the story stopped: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await host.client.close();
    await server.close();
  }
  printer.line(summary(context));
  return checks.failures.length === 0 ? 0 : 1;
}

function introduction(era: 'handshake' | 'stateless', server: DemoServer, isRaw: boolean): string {
  const revision =
    era === 'handshake' ? 'the handshake era (initialize)' : 'the stateless revision 2026-07-28';
  const story = `mcpwire demo: a host drives ${server.description}, in ${revision}.`;
  if (isRaw) return `# ${story} One line per message: "→" host to server, "←" server to host.`;
  return `${story} Every message on the wire is shown (lines ending in … are cut to the terminal width; --raw prints each message whole).`;
}

function summary({ checks, printer, server, protocolVersion }: StepContext): string {
  const sent = printer.wire.count('sent');
  const received = printer.wire.count('received');
  const seconds = (printer.elapsed / 1000).toFixed(2);
  const verdict =
    checks.failures.length === 0
      ? `all ${checks.total} checks passed`
      : `${checks.failures.length} of ${checks.total} checks FAILED (${checks.failures.join('; ')})`;
  const transport = server.kind === 'stdio' ? 'stdio' : 'Streamable HTTP';
  return `\ndemo: ${verdict} in ${seconds} s: ${sent + received} messages (${sent} host → server, ${received} server → host), protocol ${protocolVersion ?? '(none)'} over ${transport}`;
}
