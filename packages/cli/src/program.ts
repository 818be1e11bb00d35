// The `mcpwire` program: its commands, the help that lists them, the version. Building it loads
// commander and the command definitions only; each command imports what it runs when it runs.

import type { Command } from 'commander';
import { bridgeCommand } from './commands/bridge/command.ts';
import { authServerCommand } from './commands/auth-server/command.ts';
import { callCommand } from './commands/call/command.ts';
import { checkCommand } from './commands/check/command.ts';
import { completeCommand } from './commands/complete/command.ts';
import { connectCommand } from './commands/connect/command.ts';
import { demoCommand } from './commands/demo/command.ts';
import { doctorCommand } from './commands/doctor/command.ts';
import { getCommand } from './commands/get/command.ts';
import { lintCommand } from './commands/lint/command.ts';
import { listCommand } from './commands/list/command.ts';
import { loadCommand } from './commands/load/command.ts';
import { pinCommand } from './commands/pin/command.ts';
import { readCommand } from './commands/read/command.ts';
import { replayCommand } from './commands/replay/command.ts';
import { reportCommand } from './commands/report/command.ts';
import { serveCommand } from './commands/serve/command.ts';
import { tapCommand } from './commands/tap/command.ts';
import { coloursFor } from './terminal/colours.ts';
import { addExamples, defineCommand } from './define-command.ts';
import { PACKAGE_VERSION } from './package-info.ts';
import type { ProgramContext } from './program-context.ts';
import { COMMAND_TARGET } from './target/command-target.ts';

/** The commands that take a `<target>` (and so a command after `--`). */
export const TARGET_COMMANDS: ReadonlySet<string> = new Set([
  'list',
  'call',
  'read',
  'get',
  'complete',
  'connect',
  'doctor',
  'check',
  'pin',
  'load',
]);

/** The root command with every subcommand. Parse with `parseAsync(argv, { from: 'user' })`. */
export function createProgram(context: ProgramContext): Command {
  const colours = coloursFor(process.stdout);
  const program = defineCommand('mcpwire')
    .description('Serve, call and inspect Model Context Protocol servers.')
    .version(PACKAGE_VERSION, '-v, --version', 'print the version')
    .helpCommand('help [command]', 'show help for a command')
    .addCommand(serveCommand())
    .addCommand(listCommand(context))
    .addCommand(callCommand(context))
    .addCommand(readCommand(context))
    .addCommand(getCommand(context))
    .addCommand(completeCommand(context))
    .addCommand(connectCommand(context))
    .addCommand(doctorCommand(context))
    .addCommand(checkCommand(context))
    .addCommand(pinCommand(context))
    .addCommand(loadCommand(context))
    .addCommand(tapCommand())
    .addCommand(bridgeCommand())
    .addCommand(authServerCommand())
    .addCommand(lintCommand())
    .addCommand(reportCommand())
    .addCommand(replayCommand())
    .addCommand(demoCommand());
  addExamples(program, [
    ['mcpwire serve everything', 'a server for a host to start over stdio'],
    ['mcpwire list -- npx -y @modelcontextprotocol/server-everything', 'what a server offers'],
    [
      'mcpwire call github search_issues query="is:open label:bug"',
      'call a tool of a server in your host config',
    ],
    ['mcpwire connect http://127.0.0.1:3000/mcp', 'an interactive session'],
  ]);
  return program.addHelpText(
    'after',
    `${colours.bold('Targets:')}
  A server name from a host config file (your ~/.claude.json, ~/.cursor/mcp.json, Claude Desktop's
  claude_desktop_config.json, VS Code's user mcp.json; then the project's .mcp.json,
  .cursor/mcp.json, .vscode/mcp.json in this folder; or --config <file>), an http(s) URL, or "--"
  followed by the command that starts the server over stdio. Your own files win on a name clash; a
  server only a project file defines runs once you approve it (asked on a terminal, remembered until
  the file changes) or with --trust-project-config.

${colours.bold('Exit codes:')}
  0 done, 1 the server reported a failure (a tool result with isError, an error response),
  2 the command cannot be run as written against this server: an unknown option, config name,
    tool, prompt or resource, a capability the server does not declare (the message says what it
    offers), or arguments that break the tool's input schema or miss a prompt's required ones
    (every problem on a line of its own, and nothing is sent),
  3 connection or protocol failure (spawn, HTTP, handshake, closed connection, timeout),
  130 interrupted (Ctrl-C).
`,
  );
}

/**
 * Splits `argv` at the first `--`: a target command gets {@link COMMAND_TARGET} as its `<target>`
 * operand (right after the command name) and the words after `--` become the server command.
 */
export function splitArguments(argv: readonly string[]): {
  args: string[];
  commandAfterDash: string[] | undefined;
} {
  const dash = argv.indexOf('--');
  if (dash < 0) return { args: [...argv], commandAfterDash: undefined };
  const before = argv.slice(0, dash);
  const at = before.findIndex((word) => !word.startsWith('-'));
  if (at < 0 || !TARGET_COMMANDS.has(before[at]!)) return { args: [...argv], commandAfterDash: undefined };
  return {
    args: [...before.slice(0, at + 1), COMMAND_TARGET, ...before.slice(at + 1)],
    commandAfterDash: argv.slice(dash + 1),
  };
}
