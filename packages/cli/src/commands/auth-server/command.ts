// `mcpwire auth-server`: the development OAuth 2.1 authorization server of @mcpwire/auth-server on
// HTTP, for trying out and testing MCP clients and servers that use authorization. Not for production.

import { type Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';
import { UsageError } from '../../exit-code.ts';
import type { AuthServerRunOptions } from './auth-server-run.ts';
import {
  checkDevAuthHost,
  INSECURE_NETWORK_FLAG,
  INSECURE_NETWORK_HELP,
} from '../../dev-auth/dev-auth-host.ts';
import { parsePort, parseWholeSeconds } from '../../arguments/option-values.ts';

/** The `auth-server` command. */
export function authServerCommand(): Command {
  const command = defineCommand('auth-server')
    .summary('run a development OAuth 2.1 authorization server')
    .description(
      'Run a development OAuth 2.1 authorization server: RFC 8414 metadata, the authorization code grant with ' +
        'PKCE S256, Client ID Metadata Documents and dynamic registration, rotating refresh tokens, a consent ' +
        'page, and JWT access tokens (ES256, keys at jwks_uri) bound to the requested resource. Its state is ' +
        'in memory, or in a SQLite file with --db, and there is no login: it is for development and tests, ' +
        'never for production. The issuer ' +
        'URL is printed on stdout, the banner on stderr; Ctrl-C stops it.',
    )
    .option(
      '--port <port>',
      'the port to listen on (0: any free port; the issuer URL is printed)',
      parsePort,
      0,
    )
    .option(
      '--host <address>',
      `the interface to listen on (non-loopback only with ${INSECURE_NETWORK_FLAG})`,
      '127.0.0.1',
    )
    .option(INSECURE_NETWORK_FLAG, INSECURE_NETWORK_HELP)
    .option(
      '--issuer <url>',
      'the issuer to publish when clients reach the server at another URL (a tunnel, a proxy); default http://<host>:<port>',
    )
    .option('--auto-approve', 'approve every valid authorization request at once, without the consent page')
    .option(
      '--allow-loopback-client-metadata',
      'accept Client ID Metadata Document URLs on http://127.0.0.1 and localhost (a client under development)',
    )
    .option(
      '--scope <scope>',
      'a scope to accept and publish in scopes_supported (repeatable; default: any scope is accepted)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--resource <url>',
      'the audience of tokens requested without an RFC 8707 resource parameter (default: such requests are refused)',
    )
    .option('--token-ttl <seconds>', 'the lifetime of access tokens', parseWholeSeconds, 3600)
    .option(
      '--db <file>',
      'keep the state (registrations, refresh tokens, the signing key) in this SQLite file, created if missing, so it survives a restart; default: in memory',
    )
    .action(async (options: AuthServerRunOptions & { insecureDevAuthOnNetwork?: boolean }) => {
      checkOptions(options);
      checkDevAuthHost(options.host, options.insecureDevAuthOnNetwork === true, 'mcpwire auth-server');
      const { runAuthServer } = await import('./auth-server-run.ts');
      process.exitCode = await runAuthServer(options);
    });
  return addExamples(command, [
    ['mcpwire auth-server --port 9000', 'an issuer at http://127.0.0.1:9000 with a consent page'],
    ['mcpwire auth-server --auto-approve --scope mcp:tools', 'for tests: every request approved, one scope'],
    [
      'mcpwire auth-server --port 9000 --db .mcpwire/auth.db',
      'registrations and refresh tokens kept across restarts',
    ],
    [
      'mcpwire auth-server --port 9000 --issuer https://auth.my-tunnel.example',
      'behind an https tunnel, published under its URL',
    ],
  ]);
}

function checkOptions(options: AuthServerRunOptions): void {
  for (const [name, value] of [
    ['--issuer', options.issuer],
    ['--resource', options.resource],
  ] as const) {
    if (value === undefined) continue;
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new UsageError(
        `${name} expects an http(s) URL, e.g. http://127.0.0.1:9000 (received "${value}")`,
      );
  }
  if (options.db === '')
    throw new UsageError('--db expects the path of a SQLite file, e.g. --db .mcpwire/auth.db');
  if (options.issuer !== undefined && (options.issuer.endsWith('/') || /[?#]/.test(options.issuer)))
    throw new UsageError(
      `--issuer must not end with "/" or carry a query or fragment (RFC 8414), received "${options.issuer}"`,
    );
}
