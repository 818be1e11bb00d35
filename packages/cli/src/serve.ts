// `mcpwire serve <name>` over stdio: protocol messages only on stdout, diagnostics on stderr, and the
// process ends when the client closes stdin (STDIO-2, LIFE-13).

import type { Server } from 'mcpwire/server';
import type { ServerName } from './arguments.ts';
import { createEverythingServer } from '@mcpwire/server-everything';
import { createGithubServer } from '@mcpwire/server-github';

export { serveStdio } from 'mcpwire/stdio';

/** The factory of each server `serve` can run. */
export const SERVER_FACTORIES: Record<ServerName, () => Server> = {
  everything: createEverythingServer,
  github: createGithubServer,
};
