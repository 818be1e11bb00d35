// `mcpwire tap`: what a host config names in place of a server command (stdio) or URL (--http).
// It passes the traffic on unchanged, records it (--record) and lints it as it passes.

import { type Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';
import { UsageError } from '../../exit-code.ts';
import type { TapWireOptions } from './tap-recording.ts';
import { parsePort } from '../../arguments/option-values.ts';

interface TapOptions extends TapWireOptions {
  http?: string;
  port?: number;
  host: string;
}

/** The `tap` command. */
export function tapCommand(): Command {
  const command = defineCommand('tap')
    .usage('[options] -- <server command...>\n       mcpwire tap --http <url> --port <port> [options]')
    .summary("pass a server's traffic on unchanged, recording and linting it")
    .description(
      'Sit between a host and an MCP server: put "mcpwire tap -- <server command>" where the host config ' +
        'has the server command. The server runs on the same pipes; every byte is passed on unchanged both ' +
        'ways, its stderr passes through, and the tap exits with its exit code. When the host closes the ' +
        "tap's stdin and the server is still running 2 s later, the tap sends it SIGTERM, then SIGKILL 2 s " +
        "after (as mcpwire's own client does; not with --no-lint and no --record, where the server reads " +
        "the host's stdin itself). A copy of the traffic is " +
        'recorded with --record and checked live (findings on stderr, or --log). With --http, a reverse ' +
        'proxy for a Streamable HTTP server instead: point the host at the URL it prints.',
    )
    .argument('[command...]', 'after "--": the command that starts the server over stdio, with its arguments')
    .option('--record <file.jsonl>', 'write a transcript of the traffic (for lint, replay, report)')
    .option(
      '--log <file>',
      "append lint findings and the tap's notes to this file instead of writing them on stderr",
    )
    .option(
      '--redact <jsonpath>',
      'also redact this value in the recording, e.g. $.params.arguments.password (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--no-lint', 'do not check the traffic as it passes')
    .option(
      '--pin <file>',
      'warn (stderr, or --log) when a definition the host lists differs from this lock file (written by "mcpwire pin"): added, changed, or gone from a full listing; also after list_changed',
    )
    .option('--http <url>', 'proxy Streamable HTTP to this server URL instead of running a stdio server')
    .option(
      '--port <port>',
      'with --http: the port to listen on (0: any free port; the URL is printed)',
      parsePort,
    )
    .option('--host <address>', 'with --http: the interface to listen on', '127.0.0.1')
    .action(async (words: string[], options: TapOptions, self: Command) => {
      const upstream = checkOptions(words, options, self);
      process.exitCode =
        upstream === undefined ? await runStdio(words, options) : await runHttp(upstream, options);
    });
  return addExamples(command, [
    [
      'mcpwire tap --record session.jsonl -- npx -y @modelcontextprotocol/server-everything',
      'in a host config: the server as before, its traffic recorded and linted',
    ],
    [
      'mcpwire tap --no-lint --record s.jsonl -- python server.py --debug',
      'record only; the server keeps its flags',
    ],
    [
      'mcpwire tap --http http://127.0.0.1:3000/mcp --port 4000 --record s.jsonl',
      'point the host at http://127.0.0.1:4000/mcp instead',
    ],
  ]);
}

/** The upstream URL with --http, else undefined (a stdio tap); throws UsageError for a bad mix. */
function checkOptions(words: readonly string[], options: TapOptions, command: Command): URL | undefined {
  const isExplicit = (name: string): boolean => command.getOptionValueSource(name) === 'cli';
  if (options.http === undefined) {
    if (isExplicit('port') || isExplicit('host'))
      throw new UsageError('--port and --host apply with --http <url> (see "mcpwire tap --help")');
    if (words.length === 0)
      throw new UsageError(
        'give the server command after "--" (mcpwire tap -- npx -y my-server), or --http <url> --port <port>',
      );
    return undefined;
  }
  if (words.length > 0)
    throw new UsageError(`--http proxies a URL; it takes no server command (received "${words.join(' ')}")`);
  let url: URL | undefined;
  try {
    url = new URL(options.http);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UsageError(
      `--http expects the server's http(s) URL, e.g. http://127.0.0.1:3000/mcp (received "${options.http}")`,
    );
  return url;
}

async function runStdio(command: readonly string[], options: TapOptions): Promise<number> {
  // Loaded on demand: --help and the HTTP proxy never load the stdio tap, nor it the HTTP stack.
  const { runStdioTap } = await import('./stdio-tap.ts');
  const code = await runStdioTap(command, options);
  // Leave even if something still holds the event loop: the server is gone.
  setTimeout(() => process.exit(), 500).unref();
  return code;
}

async function runHttp(upstream: URL, options: TapOptions): Promise<number> {
  const { runHttpTap } = await import('./http-tap.ts');
  return runHttpTap(upstream, { ...options, port: options.port ?? 0 });
}
