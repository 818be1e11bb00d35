// `mcpwire bridge`: one server offered to a host on another transport. This file holds the options,
// the usage checks and the help; each mode lives in files of its own (stdio-front*.ts: a URL on stdio).

import { Option, type Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';
import { UsageError } from '../../exit-code.ts';
import { authOf, type AuthCommandOptions } from '../../oauth/auth-options.ts';
import { parseHeaders } from '../../target/target.ts';
import { addAuthOptions } from '../../target/target-options.ts';

interface BridgeOptions extends AuthCommandOptions {
  header?: string[];
  transport: 'streamable-http' | 'sse';
}

/** The `bridge` command. */
export function bridgeCommand(): Command {
  const command = defineCommand('bridge')
    .usage('[options] <url>')
    .summary('offer a remote MCP server to a host on stdio')
    .description(
      'Put "mcpwire bridge <url>" where a host config has a server command: the host speaks MCP on the ' +
        "bridge's stdin/stdout, the bridge passes every message on to the remote server (Streamable HTTP, " +
        'or HTTP+SSE with --transport sse) and back, unchanged, ids untouched, in one remote session, ' +
        "including the server's own requests and notifications; a dropped stream is resumed. stdout " +
        'carries only MCP; notes go to stderr. When the host closes stdin the remote session is deleted ' +
        'and the bridge exits 0. When the remote ends the session (404), the requests still pending get ' +
        'an error naming it and the bridge exits 3: the host restarts it to initialize again.',
    )
    .argument('<url>', 'the http(s) URL of the remote MCP endpoint')
    .option(
      '-H, --header <name:value>',
      'an HTTP header sent with every request to the remote (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addOption(
      new Option('--transport <kind>', 'the remote transport')
        .choices(['streamable-http', 'sse'])
        .default('streamable-http'),
    );
  addAuthOptions(command, false);
  command.action(async (url: string, options: BridgeOptions) => {
    checkUrl(url);
    const headers = parseHeaders(options.header ?? []);
    const { auth } = authOf(options);
    const { runStdioFront } = await import('./stdio-front.ts');
    process.exitCode = await runStdioFront({ url, transport: options.transport, headers, auth });
    // Leave even if a socket still holds the event loop: both sides are closed.
    setTimeout(() => process.exit(), 500).unref();
  });
  return addExamples(command, [
    ['mcpwire bridge https://mcp.example.com/mcp', 'in a host config: a remote server as a stdio one'],
    [
      'mcpwire bridge http://127.0.0.1:3000/mcp -H "Authorization: Bearer $TOKEN" --no-auth',
      'a fixed token instead of OAuth',
    ],
  ]);
}

function checkUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new UsageError(
      `bridge expects the server's http(s) URL, e.g. http://127.0.0.1:3000/mcp (received "${url}")`,
    );
}
