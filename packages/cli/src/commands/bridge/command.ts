// `mcpwire bridge`: an MCP server offered where it is not: a stdio server over Streamable HTTP
// (--http <port> -- <command>, http-front*.ts) or a remote server on stdio (<url>, stdio-front.ts).
// This file holds the options, the usage checks, the help and the dispatch to each mode's own files.

import { Option, type Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';
import { UsageError } from '../../exit-code.ts';
import {
  checkDevAuthHost,
  INSECURE_NETWORK_FLAG,
  INSECURE_NETWORK_HELP,
} from '../../dev-auth/dev-auth-host.ts';
import { authOf, type AuthCommandOptions } from '../../oauth/auth-options.ts';
import { parseHeaders } from '../../target/target.ts';
import { addAuthOptions } from '../../target/target-options.ts';
import {
  DEFAULT_IDLE_TIMEOUT_SECONDS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SSE_AFTER_MS,
  type HttpFrontOptions,
} from './http-front.ts';
import type { BridgeRecording } from './bridge-recording.ts';
import {
  parseAuthMode,
  parseCount,
  parseMilliseconds,
  parsePort,
  parseSeconds,
} from '../../arguments/option-values.ts';

interface BridgeOptions extends Omit<AuthCommandOptions, 'auth'> {
  http?: number;
  host: string;
  allowHost?: string[];
  /** 'dev' with --http; false with --no-auth (a URL's OAuth off); undefined otherwise. */
  auth?: 'dev' | false;
  header?: string[];
  transport: 'streamable-http' | 'sse';
  insecureDevAuthOnNetwork?: boolean;
  maxSessions: number;
  idleTimeout: number;
  sseAfter: number;
  shared?: boolean;
  config?: string;
  allow?: string[];
  deny?: string[];
  trace?: boolean;
  record?: string;
  redact?: string[];
}

/** The `bridge` command. */
export function bridgeCommand(): Command {
  const command = defineCommand('bridge')
    .usage(
      '[options] <url>\n       mcpwire bridge --http <port> [options] -- <server command...>\n       mcpwire bridge --http <port> [options] <url>\n       mcpwire bridge [--http <port>] --config <file> [options] [server names...]',
    )
    .summary('offer a remote MCP server on stdio, or a stdio server over Streamable HTTP')
    .description(
      'With a URL: put "mcpwire bridge <url>" where a host config has a server command. The host speaks ' +
        "MCP on the bridge's stdin/stdout and the bridge passes every message on to the remote server " +
        '(Streamable HTTP, or HTTP+SSE with --transport sse) and back, ids untouched, in one remote ' +
        "session, including the server's own requests and notifications; a dropped stream is resumed. " +
        'stdout carries only MCP; notes go to stderr. When the host closes stdin the remote session is ' +
        'deleted and the bridge exits 0; when the remote ends the session (404), the pending requests ' +
        'get an error naming it and the bridge exits 3, so the host restarts it. A remote that refuses ' +
        "the host's initialize but speaks 2026-07-28 is translated for a handshake-era host: initialize " +
        'answered from server/discover, input_required rounds asked of the host as requests.\n\n' +
        'With --http: serve a stdio MCP server over Streamable HTTP at http://<host>:<port>/mcp. Each client that ' +
        'initializes gets a session of its own with a server process of its own (started without a ' +
        "shell, with the bridge's environment; its stderr is shown with its pid). Messages pass " +
        'unchanged both ways. DELETE, --idle-timeout and the bridge stopping (SIGINT, SIGTERM) end ' +
        'sessions and their processes (stdin closed, then SIGTERM, then SIGKILL); a session whose ' +
        'process exits is over (its requests get an error, its id then 404, and the client ' +
        'initializes again). 2026-07-28 clients are served by one shared server process behind a ' +
        "2026-07-28 front: server/discover from its initialize result, the process's elicitation, " +
        'sampling and roots requests as input_required rounds, list changes on subscriptions/listen. ' +
        'Host and Origin are checked as "mcpwire serve --http" does.\n\n' +
        'With --http and a URL: the remote server served again over Streamable HTTP, both eras on one ' +
        'endpoint: a handshake-era client gets a remote session of its own (passed through, or translated ' +
        'for a 2026-07-28-only remote), a 2026-07-28 client is passed through (or translated for a ' +
        "handshake-only remote). OAuth, -H and --no-auth are the remote's; --auth dev guards this side.\n\n" +
        'With --config <file>: the servers of a host config file (or those named) as one server, on stdio or ' +
        'with --http: tools, prompts and templates named <server>__<name> (a hash suffix where names ' +
        'collide or pass 64 characters), resource URIs unchanged; a dead server is withdrawn and ' +
        'restarted. See docs/bridge.md "Several servers as one".',
    )
    .argument(
      '[target...]',
      'the http(s) URL of the remote server; with --http, after "--": the command that starts the stdio server',
    )
    .option(
      '--http <port>',
      'the port to serve Streamable HTTP on (0: any free port; the URL is printed)',
      parsePort,
    )
    .option('--host <address>', 'the interface to listen on', '127.0.0.1')
    .option(
      '--allow-host <name>',
      'also accept requests whose Host header names this (repeatable; loopback names and --host always are)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--auth <mode>',
      'with --http: require OAuth access tokens; "dev" starts the development authorization server beside it (for development only)',
      parseAuthMode,
    )
    .option(INSECURE_NETWORK_FLAG, `with --auth dev: ${INSECURE_NETWORK_HELP}`)
    .option(
      '--max-sessions <n>',
      `sessions (so server processes) at most; past it, initialize gets 503 (default ${DEFAULT_MAX_SESSIONS})`,
      parseCount,
      DEFAULT_MAX_SESSIONS,
    )
    .option(
      '--idle-timeout <seconds>',
      `stop a session and its process after this long without traffic or an open stream (default ${DEFAULT_IDLE_TIMEOUT_SECONDS}, 10 minutes)`,
      parseSeconds,
      DEFAULT_IDLE_TIMEOUT_SECONDS,
    )
    .option(
      '--sse-after <ms>',
      `with --http: answer a request on a resumable SSE stream when the server has not answered it this long after (default ${DEFAULT_SSE_AFTER_MS}); 0: every answer on SSE when the client accepts it`,
      parseMilliseconds,
      DEFAULT_SSE_AFTER_MS,
    )
    .option(
      '--shared',
      'with --http: one server process for every session, request ids remapped (for servers that keep nothing per connection)',
    )
    .option(
      '-H, --header <name:value>',
      'with a URL: an HTTP header sent with every request to the remote (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--config <file>',
      'serve the servers of this host config file (Claude Desktop, Cursor, VS Code, Claude Code), or those named as operands, as one server on stdio; see docs/bridge.md "Several servers as one"',
    )
    .option(
      '--allow <pattern>',
      'with --config: serve only the tools, prompts and templates whose <server>__<name> matches (* any run, ? one character; repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--deny <pattern>',
      'with --config: never serve those whose <server>__<name> matches (wins over --allow; repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--trace', 'show every message between the bridge and its clients on stderr as it passes')
    .option(
      '--record <file.jsonl>',
      'write a transcript of the messages between the bridge and its clients (for lint, replay, report)',
    )
    .option(
      '--redact <jsonpath>',
      'also redact this value in --trace and --record, e.g. $.params.arguments.password (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addOption(
      new Option('--transport <kind>', 'with a URL: the remote transport')
        .choices(['streamable-http', 'sse'])
        .default('streamable-http'),
    );
  // A URL's OAuth options (--no-auth, --client-id, ...); --auth <mode> above is the --http side's.
  addAuthOptions(command, false);
  command.action(async (words: string[], options: BridgeOptions) => {
    // Loaded only when asked for: a bridge starts as fast as before without them.
    const isRecorded = options.trace === true || options.record !== undefined || options.redact !== undefined;
    const recording = isRecorded
      ? await (
          await import('./bridge-recording.ts')
        ).openBridgeRecording(recordingSubject(words, options), options)
      : NOT_RECORDED;
    if (options.config !== undefined) {
      const { runAggregateCommand } = await import('./aggregate/aggregate-command.ts');
      const wrapServer = recording.wrapServer.bind(recording);
      process.exitCode = await runAggregateCommand(words, { ...options, config: options.config, wrapServer });
      await recording.close();
      // Leave even if a stray handle remains: every upstream has been stopped.
      setTimeout(() => process.exit(), 500).unref();
      return;
    }
    if (options.http === undefined) {
      const url = checkUrl(words, options);
      const headers = parseHeaders(options.header ?? []);
      const { auth } = authOf({ ...options, auth: options.auth !== false });
      const { runStdioFront } = await import('./stdio-front.ts');
      const wrapHost = recording.wrapChannel.bind(recording);
      process.exitCode = await runStdioFront({ url, transport: options.transport, headers, auth, wrapHost });
      await recording.close();
      // Leave even if a socket still holds the event loop: both sides are closed.
      setTimeout(() => process.exit(), 500).unref();
      return;
    }
    if (words.length === 1 && /^https?:\/\//i.test(words[0]!)) {
      // HTTP to HTTP: --auth dev guards this side, OAuth (or --no-auth, -H) is the remote's.
      const { auth: _inbound, shared: _shared, ...remoteOptions } = options;
      if (options.shared === true)
        throw new UsageError(
          '--shared applies with --http <port> -- <command> (see "mcpwire bridge --help")',
        );
      const url = checkUrl(words, remoteOptions);
      const { auth } = authOf({ ...options, auth: options.auth !== false });
      const { runHttpUrlFront } = await import('./http-url-front.ts');
      process.exitCode = await runHttpUrlFront(
        { url, headers: parseHeaders(options.header ?? []), auth },
        httpFrontOptions(options),
        recording.wrapServer.bind(recording),
      );
      await recording.close();
      setTimeout(() => process.exit(), 500).unref();
      return;
    }
    const [name, ...args] = checkOptions(words, options);
    const { runHttpFront } = await import('./http-front.ts');
    process.exitCode = await runHttpFront(
      { command: name!, args },
      { ...httpFrontOptions(options), ...(options.shared === true ? { shared: true } : {}) },
      recording.wrapServer.bind(recording),
    );
    await recording.close();
    // Leave even if a stray handle remains: every server process has been stopped.
    setTimeout(() => process.exit(), 500).unref();
  });
  return addExamples(command, [
    ['mcpwire bridge https://mcp.example.com/mcp', 'in a host config: a remote server as a stdio one'],
    [
      'mcpwire bridge http://127.0.0.1:3000/mcp -H "Authorization: Bearer $TOKEN" --no-auth',
      'a fixed token instead of OAuth',
    ],
    [
      'mcpwire bridge --http 3000 -- npx -y @modelcontextprotocol/server-everything',
      'the server at http://127.0.0.1:3000/mcp, a process per client session',
    ],
    [
      'mcpwire bridge --http 0 --idle-timeout 60 --max-sessions 4 -- python server.py',
      'any free port (printed); idle sessions stopped after a minute; 4 processes at most',
    ],
    [
      'mcpwire bridge --http 8080 --host 0.0.0.0 --allow-host myhost.lan -- ./my-server',
      'reachable from the network under the name myhost.lan',
    ],
    [
      'mcpwire bridge --http 3000 --shared -- node stateless-server.js',
      'one process for every client (the server keeps nothing per connection)',
    ],
    [
      'mcpwire bridge --http 3000 https://mcp.example.com/mcp',
      'a remote server again at http://127.0.0.1:3000/mcp, for clients of either era',
    ],
    [
      'mcpwire bridge --config ~/.cursor/mcp.json',
      'every server of a host config as one stdio server: tools named <server>__<tool>',
    ],
    [
      'mcpwire bridge --config mcp.json github everything --deny "*__delete_*"',
      'two of its servers, without their delete tools',
    ],
    [
      'mcpwire bridge --http 3000 --auth dev -- node server.js',
      'tokens required, from a development authorization server',
    ],
  ]);
}

/** The recording of a bridge without --trace, --record or --redact: nothing wrapped. */
const NOT_RECORDED: BridgeRecording = {
  wrapServer: (server) => server,
  wrapChannel: (channel) => channel,
  close: () => Promise.resolve(),
};

/** What a --trace or --record of the bridge is of: its client side, the upstream named. */
function recordingSubject(
  words: readonly string[],
  options: BridgeOptions,
): { transport: 'stdio' | 'http'; target: string } {
  const transport = options.http === undefined ? 'stdio' : 'http';
  return { transport, target: options.config === undefined ? words.join(' ') : `--config ${options.config}` };
}

/** The --http side's options. */
function httpFrontOptions(options: BridgeOptions): HttpFrontOptions {
  if (options.auth === 'dev')
    checkDevAuthHost(options.host, options.insecureDevAuthOnNetwork === true, 'mcpwire bridge --auth dev');
  return {
    port: options.http!,
    host: options.host,
    ...(options.allowHost === undefined ? {} : { allowedHosts: options.allowHost }),
    ...(options.auth === 'dev' ? { auth: 'dev' as const } : {}),
    maxSessions: options.maxSessions,
    idleTimeoutSeconds: options.idleTimeout,
    sseAfterMs: options.sseAfter,
  };
}

/** The remote's URL (no --http); throws UsageError for anything else. */
function checkUrl(words: readonly string[], options: BridgeOptions): string {
  if (options.shared === true)
    throw new UsageError('--shared applies with --http <port> -- <command> (see "mcpwire bridge --help")');
  if (options.auth === 'dev')
    throw new UsageError('--auth dev applies with --http <port> (see "mcpwire bridge --help")');
  const [url] = words;
  if (words.length !== 1 || !/^https?:\/\//i.test(url!)) {
    const received = words.length === 0 ? 'nothing' : `"${words.join(' ')}"`;
    throw new UsageError(
      `bridge expects the remote server's http(s) URL, e.g. http://127.0.0.1:3000/mcp, or --http <port> -- <server command> (received ${received}) (see "mcpwire bridge --help")`,
    );
  }
  try {
    new URL(url!);
  } catch {
    throw new UsageError(
      `bridge expects a valid http(s) URL (received "${url}") (see "mcpwire bridge --help")`,
    );
  }
  return url!;
}

/** The server command (with --http); throws UsageError for what cannot run. */
function checkOptions(words: readonly string[], options: BridgeOptions): readonly string[] {
  if (options.auth === false)
    throw new UsageError(
      '--no-auth applies to a URL; with --http, leave --auth out (see "mcpwire bridge --help")',
    );
  if (words.length === 0)
    throw new UsageError(
      'give the server command after "--", e.g. mcpwire bridge --http 3000 -- npx -y my-server (see "mcpwire bridge --help")',
    );
  if (words.length === 1 && /^https?:\/\//i.test(words[0]!))
    throw new UsageError(
      `bridge --http serves a stdio server command, not a URL (received "${words[0]}"); give the command after "--" (see "mcpwire bridge --help")`,
    );
  if (options.auth === 'dev')
    checkDevAuthHost(options.host, options.insecureDevAuthOnNetwork === true, 'mcpwire bridge --auth dev');
  return words;
}
