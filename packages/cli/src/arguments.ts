// The command line of `mcpwire`, parsed into a Command: pure, no I/O, so every usage error is testable.

import { parseArgs } from 'node:util';

/** The servers `mcpwire serve` can run. */
export const SERVER_NAMES = ['everything', 'github'] as const;

/** One of {@link SERVER_NAMES}. */
export type ServerName = (typeof SERVER_NAMES)[number];

/** What the user asked for. */
export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  /** `port` present: Streamable HTTP on 127.0.0.1:<port>/mcp; absent: stdio. */
  | { kind: 'serve'; server: ServerName; port?: number }
  | { kind: 'demo' };

/** A command line that cannot be run as written. Its message is one line, meant for stderr; exit code 2. */
export class UsageError extends Error {
  readonly code = 'MCPWIRE_USAGE';

  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The text of `mcpwire --help`. */
export const HELP_TEXT = `Usage: mcpwire <command> [options]

Commands:
  serve <name>    Run a built-in MCP server over stdio, or HTTP with --http (names: ${SERVER_NAMES.join(', ')})
  demo            Spawn "serve github" as a child and show every JSON-RPC message on the wire

Options:
  -h, --help      Show this help
  -v, --version   Show the version
  --http <port>   (serve) Serve Streamable HTTP at http://127.0.0.1:<port>/mcp instead of stdio;
                  port 0 picks a free port (the URL is printed on stderr)

Exit codes: 0 success, 1 failure, 2 usage error.
`;

/**
 * Parses the arguments after `node main.js`. `--help` and `--version` win over everything else.
 * Throws UsageError for an unknown option or command, a missing or extra operand, or a bad `--http` port.
 */
export function parseCommand(argv: readonly string[]): Command {
  const { values, positionals } = parseOrThrow(argv);
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const [command, ...operands] = positionals;
  if (command === undefined) throw new UsageError('missing command: expected "serve <name>" or "demo"');
  if (command === 'serve') return parseServe(operands, values.http);
  if (values.http !== undefined)
    throw new UsageError(`option --http applies to "serve" only, not "${command}"`);
  if (command === 'demo') {
    if (operands.length > 0)
      throw new UsageError(`"demo" takes no arguments, received "${operands.join(' ')}"`);
    return { kind: 'demo' };
  }
  throw new UsageError(`unknown command "${command}": expected "serve" or "demo"`);
}

function parseServe(operands: string[], http: string | undefined): Command {
  const [name, ...extra] = operands;
  if (name === undefined)
    throw new UsageError(`"serve" needs a server name: one of ${SERVER_NAMES.join(', ')}`);
  if (!isServerName(name))
    throw new UsageError(`unknown server "${name}": expected one of ${SERVER_NAMES.join(', ')}`);
  if (extra.length > 0)
    throw new UsageError(`"serve ${name}" takes no further arguments, received "${extra.join(' ')}"`);
  if (http === undefined) return { kind: 'serve', server: name };
  const port = /^\d{1,5}$/.test(http) ? Number(http) : NaN;
  if (!(port >= 0 && port <= 65_535))
    throw new UsageError(`--http expects a port number from 0 to 65535, received "${http}"`);
  return { kind: 'serve', server: name, port };
}

function parseOrThrow(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        http: { type: 'string' },
      },
    });
  } catch (error) {
    // parseArgs appends a long hint after the first sentence; the first sentence says what was wrong.
    const message =
      error instanceof Error ? (error.message.split(/\.\s|\n/)[0] ?? error.message) : String(error);
    throw new UsageError(message);
  }
}

function isServerName(name: string): name is ServerName {
  return (SERVER_NAMES as readonly string[]).includes(name);
}
