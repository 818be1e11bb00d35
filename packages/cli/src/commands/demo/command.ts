// `mcpwire demo`: a host drives the GitHub-like server through the founding scenario and every
// message on the wire is printed (see ./demo.ts for the story, the other files here for its steps).

import { Option, type Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';
import { UsageError } from '../../exit-code.ts';
import { eraParser } from '../../arguments/era-parser.ts';

interface DemoCommandOptions {
  era?: 'handshake' | 'stateless';
  http?: boolean;
  raw?: boolean;
  auth?: boolean;
}

/** What `mcpwire demo --help` says the command does. */
const DESCRIPTION =
  'Start the GitHub-like server on a fresh in-memory database ("mcpwire serve github --db :memory:", so ' +
  'your data is never touched) and drive it as a host such as Cursor or Claude Desktop would: version ' +
  'negotiation (a refused version and a downgrade), capabilities and a request refused locally, tools/list, ' +
  'create_issue, a list change, progress, sampling and elicitation answered by the host, a resource update ' +
  'after a comment, a cancelled request, and shutdown. Each message is printed as it crosses the wire, with ' +
  'its direction, which request a response answers, and the time; each step checks that the wire showed ' +
  'what the protocol requires. Exits 0 only when every check passed.';

/** The `demo` command. */
export function demoCommand(): Command {
  const command = defineCommand('demo')
    .summary('watch a host and a server talk MCP, message by message')
    .description(DESCRIPTION)
    .addOption(
      new Option(
        '--era <era>',
        'handshake: the initialize handshake (2025-11-25); stateless: the stateless revision 2026-07-28 (server/discover, ' +
          '_meta on every request, input_required rounds, subscriptions/listen)',
      )
        .choices(['handshake', 'stateless'])
        .argParser(eraParser(['handshake', 'stateless']))
        .default('handshake'),
    )
    .option(
      '--http',
      'Streamable HTTP (the server in this process on a free 127.0.0.1 port) instead of stdio, showing each HTTP ' +
        'exchange: method, status, MCP headers, SSE event ids',
    )
    .option(
      '--auth',
      'with --http: protect the server with OAuth (a development authorization server that approves at once) and ' +
        'show the whole flow: the 401, discovery, registration, consent, token, the retried call',
    )
    .option('--raw', 'one line per message, the JSON exactly as sent (the story as "#" lines)')
    .action(async (options: DemoCommandOptions) => {
      if (options.auth === true && options.http !== true)
        throw new UsageError(
          '--auth needs --http: OAuth protects HTTP servers (try "mcpwire demo --http --auth")',
        );
      const { runDemo } = await import('./demo.ts');
      process.exitCode = await runDemo({
        ...(options.era === undefined ? {} : { era: options.era }),
        isHttp: options.http === true,
        isRaw: options.raw === true,
        isAuth: options.auth === true,
      });
    });
  return addExamples(command, [
    ['mcpwire demo', 'the founding scenario over stdio, handshake era, coloured on a terminal'],
    ['mcpwire demo --era stateless', 'the same story in the stateless revision 2026-07-28'],
    ['mcpwire demo --http', 'over Streamable HTTP, with every HTTP exchange and SSE event'],
    [
      'mcpwire demo --http --auth',
      'the same behind OAuth: 401, discovery, registration, consent, token, retry',
    ],
    ["mcpwire demo --raw | grep '^←'", 'only what the server sent, one JSON message per line'],
  ]);
}
