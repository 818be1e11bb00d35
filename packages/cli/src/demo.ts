// `mcpwire demo`: a host spawns `mcpwire serve github` over stdio and walks through the founding
// scenario (handshake, tools, a list change, progress, cancellation, shutdown), printing the wire.

import { dirname, extname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Client, RequestCancelledError } from 'mcpwire/client';
import type { CallToolResult, Message, RequestId } from 'mcpwire';
import { StdioClientTransport, type StdioClientChannel } from 'mcpwire/stdio';
import { tapChannel } from 'mcpwire';
import { DemoPrinter } from './demo-printer.ts';
import { PACKAGE_VERSION } from './package-info.ts';

/** How long the host lets search_code run before cancelling it. */
const CANCEL_AFTER_MS = 300;

/** How long the host then watches for a (forbidden) response to the cancelled request. */
const QUIET_PERIOD_MS = 500;

/** What the scenario observed, for the summary line. */
interface Outcome {
  protocolVersion: string;
  issueNumber: string;
  progressUpdates: number;
  isCancelled: boolean;
  exitCode: number | null;
}

/**
 * Runs the demo: spawns the github server as a child process (the `main` entry beside this module,
 * under the same Node flags), runs the scenario and shuts the child down. Resolves with the exit
 * code for the command: 0 when every step behaved as the protocol requires, 1 otherwise.
 */
export async function runDemo(): Promise<number> {
  const started = performance.now();
  const cancelled = { id: undefined as RequestId | undefined, isAnswered: false };
  const printer = new DemoPrinter({
    write: (text) => process.stdout.write(text),
    isColoured: process.stdout.isTTY === true,
    onMessage: (direction, message) => trackSearch(direction, message, cancelled),
  });
  printer.line(
    'mcpwire demo: a host drives "mcpwire serve github" over stdio. Every JSON-RPC message on the wire is shown.',
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...process.execArgv, serverEntry(), 'serve', 'github'],
    stderr: (text) => process.stderr.write(text.replace(/^(?=.)/gm, 'server stderr | ')),
  });
  let raw: StdioClientChannel | undefined;
  // The founding scenario is the handshake era: initialize, negotiation, list_changed on the connection.
  const client = new Client({ name: 'mcpwire-demo-host', version: PACKAGE_VERSION }, { era: 'legacy' });
  try {
    raw = await transport.connect();
    printer.heading('1. Handshake and negotiation');
    await client.connect(tapChannel(raw, printer.observer));
    const outcome = await runScenario(client, printer, cancelled);
    printer.heading('6. Shutdown');
    await client.close();
    outcome.exitCode = raw.exitStatus?.code ?? null;
    printer.note(
      `stdin closed; server process ${raw.info.pid ?? '?'} exited with code ${String(outcome.exitCode)}`,
    );
    printSummary(printer, outcome, (performance.now() - started) / 1000);
    return outcome.isCancelled && outcome.exitCode === 0 ? 0 : 1;
  } finally {
    await client.close();
    await raw?.close();
  }
}

/** The entry point to spawn: `main.js` beside this module (`main.ts` when running from source). */
function serverEntry(): string {
  const here = fileURLToPath(import.meta.url);
  return join(dirname(here), `main${extname(here)}`);
}

/** Remembers the id of the search_code request and whether any response to it arrives. */
function trackSearch(
  direction: 'sent' | 'received',
  message: Message,
  cancelled: { id: RequestId | undefined; isAnswered: boolean },
): void {
  if (direction === 'sent' && 'method' in message && message.method === 'tools/call' && 'id' in message) {
    if ((message.params as { name?: unknown } | undefined)?.name === 'search_code') cancelled.id = message.id;
  }
  if (direction === 'received' && !('method' in message) && message.id === cancelled.id)
    cancelled.isAnswered = true;
}

async function runScenario(
  client: Client,
  printer: DemoPrinter,
  cancelled: { id: RequestId | undefined; isAnswered: boolean },
): Promise<Outcome> {
  const protocolVersion = client.protocolVersion ?? '?';
  printer.note(
    `negotiated protocol ${protocolVersion} with ${client.serverInfo?.name ?? '?'} ${client.serverInfo?.version ?? ''}`,
  );
  printer.note(`server capabilities: ${JSON.stringify(client.serverCapabilities)}`);

  printer.heading('2. tools/list');
  const { tools } = await client.listTools();
  printer.note(`${tools.length} tools: ${tools.map((tool) => tool.name).join(', ')}`);

  const issueNumber = await createIssue(client, printer);

  printer.heading('4. tools/call sync_repository, with a progress callback');
  let progressUpdates = 0;
  const synced = await client.callTool(
    { name: 'sync_repository', arguments: {} },
    {
      onProgress: ({ progress, total, message }) => {
        progressUpdates += 1;
        printer.note(`progress ${progress}/${total ?? '?'}${message === undefined ? '' : ` ${message}`}`);
      },
    },
  );
  printer.note(`result: ${firstText(synced)}`);

  const isCancelled = await cancelSearch(client, printer, cancelled);
  return { protocolVersion, issueNumber, progressUpdates, isCancelled, exitCode: null };
}

async function createIssue(client: Client, printer: DemoPrinter): Promise<string> {
  printer.heading('3. tools/call create_issue, then the resource list changes');
  const listChanged = new Promise<void>((resolve) => {
    const off = client.on('resourcesListChanged', () => {
      off();
      resolve();
    });
  });
  const created = await client.callTool({
    name: 'create_issue',
    arguments: {
      title: 'Login page returns 500 on Safari',
      body: 'Seen after the password reset flow.',
      labels: ['bug'],
    },
  });
  printer.note(`result: ${firstText(created)}`);
  const isChanged = await Promise.race([listChanged.then(() => true), delay(2000, false, { ref: false })]);
  printer.note(
    isChanged
      ? 'notifications/resources/list_changed arrived: re-listing resources'
      : 'no list_changed within 2 s; re-listing anyway',
  );
  const { resources } = await client.listResources();
  printer.note(`${resources.length} resources: ${resources.map((resource) => resource.uri).join(', ')}`);
  return /#(\d+)/.exec(firstText(created))?.[1] ?? '?';
}

async function cancelSearch(
  client: Client,
  printer: DemoPrinter,
  cancelled: { id: RequestId | undefined; isAnswered: boolean },
): Promise<boolean> {
  printer.heading(`5. tools/call search_code, cancelled after ${CANCEL_AFTER_MS} ms`);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort('the host no longer needs the result'), CANCEL_AFTER_MS);
  try {
    const result = await client.callTool(
      { name: 'search_code', arguments: { query: 'session' } },
      { signal: controller.signal },
    );
    printer.note(`unexpected: search_code completed (${firstText(result)})`);
    return false;
  } catch (error) {
    if (!(error instanceof RequestCancelledError)) throw error;
    printer.note(`the call rejected locally: ${error.message}`);
  } finally {
    clearTimeout(timer);
  }
  await delay(QUIET_PERIOD_MS);
  const id = String(cancelled.id);
  printer.note(
    cancelled.isAnswered
      ? `unexpected: a response to request ${id} arrived`
      : `no response to request ${id} arrived within ${QUIET_PERIOD_MS} ms, as the spec requires`,
  );
  return !cancelled.isAnswered;
}

function firstText(result: CallToolResult): string {
  const block = result.content.find((item) => item.type === 'text');
  return block?.type === 'text' ? block.text : '(no text)';
}

function printSummary(printer: DemoPrinter, outcome: Outcome, seconds: number): void {
  const { sent, received } = printer.counts;
  printer.line(
    `\ndemo: done in ${seconds.toFixed(2)} s: ${sent + received} messages (${sent} host -> server, ${received} server -> host), ` +
      `protocol ${outcome.protocolVersion}, issue #${outcome.issueNumber} created, ${outcome.progressUpdates} progress updates, ` +
      `search_code ${outcome.isCancelled ? 'cancelled' : 'NOT cancelled'}, server exit code ${String(outcome.exitCode)}`,
  );
}
