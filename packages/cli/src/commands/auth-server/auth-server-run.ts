// Runs `mcpwire auth-server`: listens, prints the issuer on stdout and the development banner on
// stderr, and serves until SIGINT or SIGTERM. Loaded only when the command runs.

import { createAuthorizationServer, type AuthorizationServer } from '@mcpwire/auth-server';
import { coloursFor } from '../../terminal/colours.ts';
import { CliError, ExitCode, type ExitCodeValue } from '../../exit-code.ts';

/** The command's options as commander parses them. */
export interface AuthServerRunOptions {
  port: number;
  host: string;
  issuer?: string;
  autoApprove?: boolean;
  allowLoopbackClientMetadata?: boolean;
  scope?: string[];
  resource?: string;
  tokenTtl: number;
  /** The SQLite file of `--db`; absent: state in memory. */
  db?: string;
}

/** Serves until SIGINT or SIGTERM, then closes every connection; exit 3 when it cannot listen. */
export async function runAuthServer(options: AuthServerRunOptions): Promise<ExitCodeValue> {
  const server = openServer(options);
  let listening;
  try {
    listening = await server.listen({ port: options.port, host: options.host });
  } catch (error) {
    await server.close();
    throw new CliError(
      `cannot listen on ${options.host}:${options.port}: ${(error as Error).message}; choose another --port (0 picks a free one) or --host`,
      ExitCode.connection,
      { cause: error },
    );
  }
  process.stdout.write(`${listening.issuer}\n`);
  process.stderr.write(banner(listening.issuer, options));
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await listening.close();
  return ExitCode.ok;
}

/** The server of `options`; a --db file that cannot be opened or migrated is a usage error (exit 2) with the reason. */
function openServer(options: AuthServerRunOptions): AuthorizationServer {
  try {
    return createAuthorizationServer({
      ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
      shouldAutoApprove: options.autoApprove === true,
      canFetchLoopbackClientMetadata: options.allowLoopbackClientMetadata === true,
      ...(options.scope === undefined ? {} : { scopesSupported: options.scope }),
      ...(options.resource === undefined ? {} : { defaultResource: options.resource }),
      accessTokenTtlSeconds: options.tokenTtl,
      ...(options.db === undefined ? {} : { store: { file: options.db } }),
    });
  } catch (error) {
    throw new CliError(
      `cannot open the --db file ${options.db ?? ''}: ${(error as Error).message}; give a writable path, or leave --db out to keep the state in memory`,
      ExitCode.usage,
      { cause: error },
    );
  }
}

function banner(issuer: string, options: AuthServerRunOptions): string {
  const colours = coloursFor(process.stderr);
  const consent = options.autoApprove === true ? 'auto-approve (no consent page)' : 'consent page';
  return [
    `${colours.yellow(colours.bold('mcpwire auth-server: for development and tests only, not for production'))} (no login, state ${options.db === undefined ? 'in memory' : `in ${options.db}`})`,
    `  issuer    ${colours.cyan(issuer)}`,
    `  metadata  ${issuer}/.well-known/oauth-authorization-server`,
    `  consent   ${consent}`,
    'Ctrl-C stops',
    '',
  ].join('\n');
}
