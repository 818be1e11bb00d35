// Connecting the library's Client to a resolved Target: the transport for its kind, the handshake,
// and every failure turned into a CliError with the exit code a script can branch on.

import {
  CapabilityNotNegotiatedError,
  Client,
  ConnectClosedError,
  ConnectTimeoutError,
  RequestCancelledError,
  RequestTimeoutError,
  RpcError,
  type ClientExtension,
  type ClientHandlers,
  type EraChoice,
} from 'mcpwire/client';
import { HttpError, SseClientTransport, StreamableHttpClientTransport } from 'mcpwire/http';
import { ProcessExitError, ProcessSpawnError, StdioClientTransport } from 'mcpwire/stdio';
import type { Channel, Transport } from 'mcpwire';
import type { EraKeyed } from 'mcpwire/client';
import type { FetchLike, HttpAuthorization } from 'mcpwire/http';
import { CliError, ExitCode } from '../exit-code.ts';
import type { CliAuth, CliAuthOptions } from '../oauth/cli-oauth.ts';
import { PACKAGE_VERSION } from '../package-info.ts';
import { toTerminalText } from '../terminal/terminal-text.ts';
import { DeadlineExceededError, type Deadline } from './deadline.ts';
import type { HttpTarget, Target } from './target.ts';
import { observeStdioTransport, recordingFetch } from '../wire/client-wire.ts';
import { toCappedJson } from '../wire/json-depth.ts';
import type { WireRecorder } from '../wire/recorder.ts';

/** How the client is set up. */
export interface OpenOptions {
  era?: EraChoice;
  /** Default timeout of each request, in ms. */
  timeoutMs?: number;
  /** Answers to server requests; none (the one-shot commands) declares no sampling or elicitation. */
  handlers?: ClientHandlers;
  /** Show a stdio server's stderr as it is written; otherwise it is kept and shown only if the server fails. */
  isVerbose?: boolean;
  signal?: AbortSignal;
  /** Where --trace and --record see the connection: messages and transport events. */
  recorder?: WireRecorder;
  /** OAuth for URL targets (the browser flow when the server answers 401); absent: none. */
  auth?: CliAuthOptions;
  /** Extensions the client declares (e.g. tasks for `call --task`); default none. */
  extensions?: readonly ClientExtension[];
  /** The --timeout budget the whole connection shares (era probe and initialize), stdio targets only. */
  deadline?: Deadline;
  /** The stdio transport's line limit (--max-message-size); default the library's 64 MiB. */
  maxMessageBytes?: number;
  /** Sees the connection beneath the Client: `load`'s wire engine takes its requests from it. */
  tap?: ConnectionTap;
}

/**
 * What sees the connection beneath the Client: its channel, and (URL targets, Streamable HTTP) the
 * authorization every exchange goes through, given the OAuth one when OAuth is on, else undefined.
 */
export interface ConnectionTap {
  channel(channel: Channel): Channel;
  authorization(inner: HttpAuthorization | undefined): HttpAuthorization;
}

/** How much of a stdio server's stderr is kept to explain its failure. */
const STDERR_TAIL = 4000;

/** An open client and the way to close it (also ends a spawned server). */
export interface OpenClient extends AsyncDisposable {
  client: Client;
  /** The server's stderr as far as it was kept (stdio targets, not verbose), for failure messages. */
  stderrTail(): string;
  /** The process id of the server started over stdio; undefined for a URL. */
  readonly pid: number | undefined;
}

/** Connects to `target`; rejects with a CliError (exit 3, or 130 when `signal` aborted it). */
export async function openClient(target: Target, options: OpenOptions = {}): Promise<OpenClient> {
  let tail = '';
  const keepStderr = (text: string): void => {
    tail = (tail + text).slice(-STDERR_TAIL);
  };
  const showStderr = options.isVerbose === true ? forwardStderr : keepStderr;
  const { recorder } = options;
  const stderr =
    recorder === undefined
      ? showStderr
      : (text: string) => {
          recorder.record({ type: 'stderr', text });
          showStderr(text);
        };
  const auth =
    target.kind === 'http' && options.auth !== undefined
      ? await createAuth(target, options.auth, recorder)
      : undefined;
  const authOptions =
    options.tap === undefined || target.kind !== 'http' || target.transport !== 'streamable'
      ? auth?.transportOptions
      : tapAuthorization(auth?.transportOptions, options.tap);
  let pid: number | undefined;
  const transport = createTransport(target, {
    stderr,
    recorder,
    auth: authOptions,
    maxMessageBytes: options.maxMessageBytes,
    onPid: (spawned) => (pid = spawned),
  });
  const tapped = options.tap === undefined ? transport : tapTransport(transport, options.tap);
  const client = new Client(
    { name: 'mcpwire-cli', version: PACKAGE_VERSION },
    {
      era: options.era ?? 'auto',
      handlers: options.handlers ?? {},
      ...(options.extensions === undefined ? {} : { extensions: options.extensions }),
      // A server that answers late is still starting (npx may be installing it), not a handshake-era
      // server ignoring the probe: wait for the era probe as long as for any answer. Under a shared
      // deadline, half of it: initialize then still has time, while the probe stays open for a
      // late answer (the client's late-probe rule), so a slow stateless-era server is still found.
      ...(options.timeoutMs === undefined
        ? {}
        : {
            requestTimeoutMs: options.timeoutMs,
            probeTimeoutMs: options.deadline === undefined ? options.timeoutMs : options.timeoutMs / 2,
          }),
      onError: (error) => {
        if (options.isVerbose === true)
          process.stderr.write(`mcpwire: ${toTerminalText(error.message, { keepNewlines: true })}\n`);
      },
    },
  );
  const signal = options.deadline === undefined ? options.signal : options.deadline.with(options.signal);
  try {
    await client.connect(tapped, signal === undefined ? {} : { signal });
  } catch (error) {
    await client.close().catch(() => {});
    await auth?.[Symbol.asyncDispose]();
    throw toCliError(error, `cannot connect to ${target.label}`, tail);
  }
  return {
    client,
    stderrTail: () => tail,
    pid,
    [Symbol.asyncDispose]: async () => {
      await client.close().catch(() => {});
      await auth?.[Symbol.asyncDispose]();
    },
  };
}

/** `transport` with its channels passed through `tap` (its era cache key kept). */
function tapTransport(transport: Transport & Partial<EraKeyed>, tap: ConnectionTap): Transport {
  return {
    ...(transport.key === undefined ? {} : { key: transport.key }),
    connect: async () => tap.channel(await transport.connect()),
  };
}

/** The transport's authorization option through `tap` (a fetch, asked for by --record, stays as it is). */
function tapAuthorization(
  options: CliAuth['transportOptions'] | undefined,
  tap: ConnectionTap,
): CliAuth['transportOptions'] | undefined {
  if (options !== undefined && 'fetch' in options) return options;
  return { authorization: tap.authorization(options?.authorization) } as CliAuth['transportOptions'];
}

/**
 * The OAuth client, loaded only now: an `authorization` beneath the transport's pool; with a recorder,
 * an OAuth fetch over the recording one (so the MCP and the auth exchanges are all on the wire view).
 */
async function createAuth(
  target: HttpTarget,
  auth: CliAuthOptions,
  recorder: WireRecorder | undefined,
): Promise<CliAuth> {
  const { authBaseFetch, createCliAuth } = await import('../oauth/cli-oauth.ts');
  const base = authBaseFetch(target.url, auth);
  const inner: FetchLike = recorder === undefined ? base : recordingFetch(recorder, base);
  return createCliAuth(target.url, auth, { inner, isFetchWanted: recorder !== undefined });
}

function createTransport(
  target: Target,
  wiring: {
    stderr: (text: string) => void;
    recorder: WireRecorder | undefined;
    auth: CliAuth['transportOptions'] | undefined;
    maxMessageBytes: number | undefined;
    onPid: (pid: number | undefined) => void;
  },
): Transport {
  const { stderr, recorder, auth, maxMessageBytes } = wiring;
  if (target.kind === 'stdio') {
    const spawning = new StdioClientTransport({
      command: target.command,
      args: target.args,
      env: target.env,
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
      ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
      stderr,
    });
    // The channel knows its process: kept for `load`, which reads the server's CPU and memory.
    const transport: Transport & EraKeyed = {
      key: spawning.key,
      connect: async () => {
        const channel = await spawning.connect();
        wiring.onPid(channel.info?.pid);
        return channel;
      },
    };
    return recorder === undefined ? transport : observeStdioTransport(transport, recorder, target);
  }
  const options = {
    headers: target.headers,
    onError: () => {},
    ...(auth !== undefined ? auth : recorder === undefined ? {} : { fetch: recordingFetch(recorder) }),
  };
  return target.transport === 'sse'
    ? new SseClientTransport(target.url, options)
    : new StreamableHttpClientTransport(target.url, options);
}

/** The server's stderr as it is written (--verbose): its controls shown escaped, its lines kept. */
function forwardStderr(text: string): void {
  process.stderr.write(toTerminalText(text, { keepNewlines: true }));
}

/**
 * The CliError for a failure while talking to a server: an error response is exit 1 (the server
 * refused the request), our own cancellation 130, a capability the server did not declare 2, a
 * CliError keeps its code, anything else
 * (spawn, HTTP, timeouts, closed connections, invalid results) is exit 3. `doing` starts the message.
 */
export function toCliError(error: unknown, doing: string, stderrTail = ''): CliError {
  if (error instanceof CliError) return error;
  const cause = causeOf(error);
  if (cause instanceof CliError) return cause;
  if (isOAuthError(cause))
    return new CliError(
      `${doing}: authorization failed at step "${cause.step}": ${cause.message}`,
      ExitCode.connection,
      { cause: error },
    );
  const timeoutSeconds = timeoutSecondsOf(error);
  if (timeoutSeconds !== undefined) {
    const tail = stderrTail.trim() === '' ? '' : `\nserver stderr:\n${stderrTail.trimEnd()}`;
    return new CliError(
      `${doing}: no answer within ${timeoutSeconds} s (--timeout ${timeoutSeconds}); the server may still be starting, or not speak MCP here: raise --timeout to wait longer${tail}`,
      ExitCode.connection,
      { cause: error },
    );
  }
  if (error instanceof RequestCancelledError) return new CliError('interrupted', ExitCode.interrupted);
  // The client refused, sending nothing, a request the server did not declare the capability for:
  // the command cannot be run against this server (commands check first, see requireCapability).
  if (error instanceof CapabilityNotNegotiatedError)
    return new CliError(
      `${doing}: the server does not declare the "${error.capability}" capability`,
      ExitCode.usage,
      { cause: error },
    );
  if (error instanceof RpcError) {
    const data = error.data === undefined ? '' : ` ${toCappedJson(error.data)}`;
    return new CliError(
      `${doing}: the server answered error ${error.code}: ${error.message}${data}`,
      ExitCode.failed,
      { cause: error },
    );
  }
  const exit = describeProcessExit(error, stderrTail);
  if (exit !== undefined) {
    const stderr =
      exit.stderr === '' ? ' and wrote nothing on stderr' : `; its last stderr output:\n${exit.stderr}`;
    const era = exit.eraHint === undefined ? '' : `\n(${exit.eraHint})`;
    return new CliError(
      `${doing}: the server ${exit.how} before it answered${stderr}${era}`,
      ExitCode.connection,
      {
        cause: error,
      },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  const hint =
    error instanceof ProcessSpawnError
      ? '; check the command and your PATH'
      : error instanceof HttpError && error.status === 401
        ? '; the server needs authorization: run without --no-auth to sign in with OAuth, or pass -H "Authorization: Bearer <token>"'
        : '';
  const tail =
    stderrTail.trim() === '' || message.includes(stderrTail.trim())
      ? ''
      : `\nserver stderr:\n${stderrTail.trimEnd()}`;
  return new CliError(`${doing}: ${message}${hint}${tail}`, ExitCode.connection, { cause: error });
}

/**
 * The seconds of the --timeout that ran out when `error` is a timeout (the deadline passed, or a
 * step or request waited its whole timeout), else undefined.
 */
export function timeoutSecondsOf(error: unknown): number | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    if (current instanceof DeadlineExceededError) return current.seconds;
    if (current instanceof ConnectTimeoutError || current instanceof RequestTimeoutError)
      return current.timeoutMs / 1000;
    current = current.cause;
  }
  return undefined;
}

/** A stdio server that exited while a request waited: how it ended, its stderr, and a hint if any. */
export interface ProcessExitReport {
  /** "exited with code 1", "was killed by signal SIGKILL". */
  how: string;
  /** The end of its stderr (the cause, most of the time), trimmed; '' when it wrote none. */
  stderr: string;
  /** Set when it exited during the era probe saying nothing: a handshake-era server may exit on it. */
  eraHint?: string;
}

/**
 * How a stdio server's exit explains `error`, when a ProcessExitError is among its causes; else
 * undefined. `stderrTail` (what the CLI kept) is preferred over the error's own, shorter tail.
 */
export function describeProcessExit(error: unknown, stderrTail = ''): ProcessExitReport | undefined {
  let exit: ProcessExitError | undefined;
  for (let current = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    if (current instanceof ProcessExitError) exit = current;
    current = current.cause;
  }
  if (exit === undefined) return undefined;
  const how =
    exit.signal === null
      ? `exited with code ${String(exit.exitCode)}`
      : `was killed by signal ${exit.signal}`;
  const stderr = (stderrTail.trim() === '' ? exit.stderrTail : stderrTail).trim();
  // What it wrote on stderr is the cause; only a server that exited saying nothing may be one of
  // the handshake-era servers that exit on a request before initialize (the spec's probe note).
  const isSilentProbeExit =
    stderr === '' && error instanceof ConnectClosedError && error.step === 'server/discover';
  return isSilentProbeExit
    ? {
        how,
        stderr,
        eraHint:
          'if it is a handshake-era server that exits on requests before initialize, try --era handshake',
      }
    : { how, stderr };
}

/** The innermost CliError or OAuthError along `error`'s causes, else `error` itself. */
function causeOf(error: unknown): unknown {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    if (current instanceof CliError || isOAuthError(current)) return current;
    current = current.cause;
  }
  return error;
}

/** mcpwire/auth's OAuthError, recognised by its stable code (so this file need not load mcpwire/auth). */
function isOAuthError(error: unknown): error is Error & { step: string; code: string } {
  return (
    error instanceof Error &&
    error.name === 'OAuthError' &&
    typeof (error as { code?: unknown }).code === 'string' &&
    (error as unknown as { code: string }).code.startsWith('OAUTH_')
  );
}
