// `mcpwire doctor <target>`: each step of reaching a server, in order, until one fails: the command
// is found and starts (stdio) or DNS, TCP, TLS and the endpoint answer (HTTP); then the era and
// version negotiation, the handshake, stdout carrying nothing but messages, and listing each
// primitive the server declares. Every failure says its cause and what to change.

import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import type { Client } from 'mcpwire/client';
import {
  ConnectClosedError,
  ConnectTimeoutError,
  InvalidResultError,
  RpcError,
  UnsupportedProtocolVersionError,
} from 'mcpwire/client';
import { FetchFailedError, HttpError } from 'mcpwire/http';
import { ProcessExitError, ProcessSpawnError } from 'mcpwire/stdio';
import { ExitCode, type ExitCodeValue } from '../../exit-code.ts';
import { Deadline } from '../../target/deadline.ts';
import {
  describeProcessExit,
  openClient,
  timeoutSecondsOf,
  type OpenClient,
} from '../../target/open-client.ts';
import type { StdioTarget, Target } from '../../target/target.ts';
import type { WireRecorder } from '../../wire/recorder.ts';
import type { EventEntry, InvalidEntry, MessageEntry } from '../../wire/transcript.ts';
import type { CliAuthOptions } from '../../oauth/cli-oauth.ts';
import { authStepsAfter, explainAuthFailure, type AuthWalk } from './auth-steps.ts';
import { checkNetwork } from './network.ts';
import type { Checklist } from './checklist.ts';

/** How the doctor connects. */
export interface DoctorOptions {
  era: 'auto' | 'handshake' | 'stateless';
  timeoutMs: number;
  /** --max-message-size, for a stdio server. */
  maxMessageBytes?: number;
  recorder: WireRecorder;
  /** Every entry the recorder saw, in order (the doctor reads the wire afterwards). */
  entries: readonly EventEntry[];
  /** With --auth: OAuth runs, and its exchanges are steps. */
  auth?: CliAuthOptions;
  authWalk?: AuthWalk;
}

/** The steps after connecting, for the skip list (stdout only over stdio). */
const AFTER_CONNECT = ['era', 'handshake', 'tools', 'resources', 'prompts'];

/** Runs the steps for `target`; resolves with 0 when none failed, else 1. */
export async function runDoctor(
  target: Target,
  options: DoctorOptions,
  list: Checklist,
): Promise<ExitCodeValue> {
  if (target.kind === 'stdio') {
    if (!(await checkCommand(target, list))) return finish(list, ['start', ...AFTER_CONNECT, 'stdout']);
  } else if (!(await checkNetwork(new URL(target.url), list))) {
    return finish(list, ['endpoint', ...AFTER_CONNECT]);
  }
  let opened: OpenClient;
  // Over stdio the era probe and initialize share --timeout (a silent server is reported in that).
  const deadline = target.kind === 'stdio' ? new Deadline(options.timeoutMs / 1000) : undefined;
  try {
    opened = await openClient(target, {
      era: options.era,
      timeoutMs: options.timeoutMs,
      recorder: options.recorder,
      ...(deadline === undefined ? {} : { deadline }),
      ...(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes }),
      ...(options.auth === undefined ? {} : { auth: options.auth }),
    });
  } catch (error) {
    if (options.authWalk !== undefined && explainAuthFailure(error, options.authWalk, list))
      return finish(list, [...authStepsAfter(list), 'endpoint', ...AFTER_CONNECT]);
    explainConnectFailure(target, error, options.entries, list);
    return finish(
      list,
      AFTER_CONNECT.filter((step) => !list.results.some((result) => result.step === step)),
    );
  } finally {
    deadline?.[Symbol.dispose]();
  }
  await using _closing = opened;
  const { client } = opened;
  if (target.kind === 'stdio') {
    const pid = options.entries.find((entry) => entry.type === 'spawn')?.pid;
    list.ok('start', `the server started${pid === undefined ? '' : ` (pid ${pid})`} and answered`);
  } else list.ok('endpoint', `${target.url} answers MCP over Streamable HTTP`);
  reportEra(client, options.entries, list);
  const info = client.serverInfo;
  const declared = Object.keys(client.serverCapabilities ?? {});
  list.ok(
    options.entries.some(
      (entry) =>
        entry.type === 'message' && 'method' in entry.message && entry.message.method === 'initialize',
    )
      ? 'handshake'
      : 'discover',
    `server "${info?.name ?? '?'}" ${info?.version ?? ''}, protocol ${client.protocolVersion ?? '?'}, capabilities: ${declared.join(', ') || 'none'}`,
  );
  await listPrimitives(client, list);
  if (target.kind === 'stdio') reportStdout(options.entries, list);
  return finish(list, []);
}

function finish(list: Checklist, skipped: readonly string[]): ExitCodeValue {
  const failed = list.failed;
  if (skipped.length > 0 && failed !== undefined) list.skip(skipped, `not run: "${failed.step}" failed`);
  return list.results.some((result) => result.verdict === 'fail') ? ExitCode.failed : ExitCode.ok;
}

/** The command exists on PATH (or at its path) and is executable. */
async function checkCommand(target: StdioTarget, list: Checklist): Promise<boolean> {
  const { command } = target;
  const candidates =
    isAbsolute(command) || command.includes('/')
      ? [command]
      : (target.env.PATH ?? process.env.PATH ?? '')
          .split(delimiter)
          .filter(Boolean)
          .map((dir) => join(dir, command));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      list.ok('command', `${command} is ${candidate}`);
      return true;
    } catch {
      // next
    }
  }
  list.fail(
    'command',
    candidates.length === 1 ? `${command} does not exist or is not executable` : `${command} is not on PATH`,
    "install it or give its full path; a host starts servers with its own PATH, often shorter than your shell's",
  );
  return false;
}

/** Names the step a failed connect stopped at, with the cause. */
function explainConnectFailure(
  target: Target,
  failure: unknown,
  entries: readonly EventEntry[],
  list: Checklist,
): void {
  const error = failure instanceof Error && failure.cause !== undefined ? failure.cause : failure;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ProcessSpawnError) {
    list.fail('start', message, 'check the command and its arguments');
    return;
  }
  if (error instanceof ProcessExitError || (target.kind === 'stdio' && error instanceof ConnectClosedError)) {
    const recorded = entries.flatMap((entry) => (entry.type === 'stderr' ? [entry.text] : [])).join('');
    const exit = describeProcessExit(failure, recorded);
    const indent = '\n             ';
    // Its stderr first: that is the cause; an era hint, if any, after it.
    const detail =
      exit === undefined
        ? `the server exited before it answered: ${message}`
        : `the server ${exit.how} before it answered${exit.stderr === '' ? ' and wrote nothing on stderr' : `${indent}stderr: ${exit.stderr.split('\n').slice(-5).join(indent)}`}${exit.eraHint === undefined ? '' : `${indent}(${exit.eraHint})`}`;
    list.fail(
      'start',
      detail,
      'run the command by hand to see why it stops; a stdio server must keep running while stdin is open',
    );
    return;
  }
  if (target.kind === 'stdio') {
    if (entries.some((entry) => entry.type === 'message' && entry.from === 'server'))
      list.ok('start', 'the server started and answered');
    reportStdout(entries, list);
  }
  if (error instanceof HttpError) {
    list.fail('endpoint', message, httpHint(error.status, target));
    return;
  }
  if (error instanceof FetchFailedError) {
    list.fail(
      'endpoint',
      message,
      'the connection opened but the request failed: check the URL scheme and path',
    );
    return;
  }
  if (error instanceof UnsupportedProtocolVersionError) {
    list.fail(
      'version',
      `the server answered protocol ${error.received}; mcpwire speaks ${error.supported.join(', ')}`,
      'update the server or mcpwire so they share a revision; or pin one with --era handshake|stateless',
    );
    return;
  }
  if (error instanceof RpcError && error.code === -32022) {
    list.fail(
      'version',
      `the server refused the stateless revision: ${message}`,
      'try --era handshake for the handshake era',
    );
    return;
  }
  const seconds = timeoutSecondsOf(failure);
  if (seconds !== undefined) {
    const step = failure instanceof ConnectTimeoutError ? ` to ${failure.step}` : '';
    list.fail(
      'handshake',
      `no answer${step} within ${seconds} s (--timeout ${seconds})`,
      'the server may be slow to start (raise --timeout) or not speak MCP on this transport',
    );
    return;
  }
  if (error instanceof InvalidResultError) {
    list.fail('handshake', message, 'the server answered initialize with a malformed result: fix the server');
    return;
  }
  list.fail('handshake', message, 'run with --trace to see every message');
}

function httpHint(status: number, target: Target): string {
  if (status === 404) {
    const path = target.kind === 'http' ? new URL(target.url).pathname : '';
    return `nothing is served at ${path}: check the path (many servers, and mcpwire serve, use /mcp)`;
  }
  if (status === 401)
    return 'the server wants authorization: run "mcpwire doctor --auth <url>" to walk the OAuth flow, or pass a token with -H "Authorization: Bearer <token>"';
  if (status === 403)
    return "the server refused this client: check the token's scopes, or the Origin/Host the server allows";
  if (status === 405)
    return 'the URL does not accept POST: it may be the legacy HTTP+SSE endpoint or not an MCP endpoint';
  if (status === 406 || status === 415)
    return "the server does not accept MCP's content types: is this an MCP endpoint?";
  if (status >= 500) return 'the server failed: look at its logs';
  return 'check the URL';
}

/** Which era the connection settled on, and why, read from the wire. */
function reportEra(client: Client, entries: readonly EventEntry[], list: Checklist): void {
  const messages = entries.filter((entry): entry is MessageEntry => entry.type === 'message');
  const discover = messages.find(
    (entry) =>
      entry.from === 'client' && 'method' in entry.message && entry.message.method === 'server/discover',
  );
  const discoverId = discover !== undefined && 'id' in discover.message ? discover.message.id : undefined;
  const answer = messages.find(
    (entry) =>
      entry.from === 'server' &&
      !('method' in entry.message) &&
      'id' in entry.message &&
      entry.message.id === discoverId,
  );
  const version = client.protocolVersion ?? '?';
  if (discover === undefined)
    list.ok('era', `handshake era ${version} (asked with --era handshake, no server/discover sent)`);
  else if (answer !== undefined && 'result' in answer.message)
    list.ok('era', `stateless revision ${version}: server/discover answered`);
  else if (answer !== undefined && 'error' in answer.message)
    list.ok(
      'era',
      `handshake era ${version}: server/discover was refused (error ${answer.message.error.code}), initialize followed`,
    );
  else list.ok('era', `handshake era ${version}: server/discover got no answer, initialize followed`);
}

/** Lists each primitive the server declared (every page). */
async function listPrimitives(client: Client, list: Checklist): Promise<void> {
  const capabilities = client.serverCapabilities ?? {};
  const steps: Array<[string, keyof typeof capabilities, () => Promise<string>]> = [
    ['tools', 'tools', async () => count((await client.listAllTools()).length, 'tool')],
    [
      'resources',
      'resources',
      async () => {
        const [resources, templates] = await Promise.all([
          client.listAllResources(),
          client.listAllResourceTemplates(),
        ]);
        return `${count(resources.length, 'resource')}, ${count(templates.length, 'template')}`;
      },
    ],
    ['prompts', 'prompts', async () => count((await client.listAllPrompts()).length, 'prompt')],
  ];
  for (const [step, capability, run] of steps) {
    if (capabilities[capability] === undefined) {
      list.add({ step, verdict: 'skip', detail: `not offered (no "${String(capability)}" capability)` });
      continue;
    }
    try {
      list.ok(step, await run());
    } catch (error) {
      list.fail(
        step,
        (error as Error).message,
        `the server declares "${String(capability)}" but listing failed: fix the server`,
      );
    }
  }
}

/** Lines on a stdio server's stdout that are no JSON-RPC message (stdout is the wire). */
function reportStdout(entries: readonly EventEntry[], list: Checklist): void {
  if (list.results.some((result) => result.step === 'stdout')) return;
  const noise = entries.filter(
    (entry): entry is InvalidEntry => entry.type === 'invalid' && entry.from === 'server',
  );
  if (noise.length === 0) {
    list.ok('stdout', 'only JSON-RPC messages on stdout');
    return;
  }
  list.fail(
    'stdout',
    `${noise.length} line${noise.length === 1 ? '' : 's'} on stdout that ${noise.length === 1 ? 'is' : 'are'} no JSON-RPC message: ${noise[0]!.reason}`,
    "a stdio server's stdout carries only MCP messages: write logs and banners to stderr",
  );
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
