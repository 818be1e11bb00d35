// A Server protected by bearerAuth, served by mcpwire/node on 127.0.0.1, for the resource server's
// end-to-end tests: `whoami` answers with `ctx.auth` and the era, `deploy` needs the `deploy` scope.
// Everything the handler and the auth layer report goes to `logs`, to show that no token is in them.

import { bearerAuth, type BearerAuth, type BearerAuthOptions } from '../../src/auth/index.ts';
import { Server } from '../../src/server/index.ts';
import { chainHandlers, createHttpHandler } from '../../src/transports/http/index.ts';
import { serveHttp } from '../../src/transports/http/node.ts';
import { freePort } from '../../../../test/support/free-port.ts';

/** The running server; `await using` closes it. */
export interface ProtectedServer extends AsyncDisposable {
  /** The MCP endpoint, also the protected resource's canonical URI. */
  url: string;
  auth: BearerAuth;
  /** Every diagnostic and refusal the handler and the auth layer reported, as text. */
  logs: string[];
}

/** Starts the server; `options` are bearerAuth's (resource, onRefusal and onError are set here). */
export async function startProtectedServer(
  options: Omit<BearerAuthOptions, 'resource' | 'onRefusal' | 'onError'>,
): Promise<ProtectedServer> {
  const logs: string[] = [];
  const describe = (error: Error): string => `${error.message} ${String(error.cause ?? '')}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const auth = bearerAuth({
    ...options,
    resource: url,
    onRefusal: (refusal) => logs.push(JSON.stringify(refusal)),
    onError: (error) => logs.push(describe(error)),
  });
  const server = new Server({ name: 'protected', version: '1.0.0' });
  server.tool({ name: 'whoami' }, (_args, ctx) => JSON.stringify({ era: ctx.era, auth: ctx.auth }));
  server.tool({ name: 'deploy' }, (_args, ctx) => `deployed by ${ctx.auth?.subject ?? 'nobody'}`);
  const handler = createHttpHandler(server, { auth, onError: (error) => logs.push(describe(error)) });
  const handle = await serveHttp(chainHandlers(auth.metadata, handler), { port });
  return {
    url,
    auth,
    logs,
    [Symbol.asyncDispose]: () => handle.close(),
  };
}
