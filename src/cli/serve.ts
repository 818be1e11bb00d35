// `mcpwire serve <name>` over stdio: protocol messages only on stdout, diagnostics on stderr, and the
// process ends when the client closes stdin (STDIO-2, LIFE-13).

import type { Server } from '../server/index.ts';
import type { ServerName } from './arguments.ts';
import { createEverythingServer } from './servers/everything.ts';
import { createGithubServer } from './servers/github.ts';

export { serveStdio } from '../transports/stdio/index.ts';

/** The factory of each server `serve` can run. */
export const SERVER_FACTORIES: Record<ServerName, () => Server> = {
  everything: createEverythingServer,
  github: createGithubServer,
};
