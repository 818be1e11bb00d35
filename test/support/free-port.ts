// A TCP port for a test server to bind: one that was free on 127.0.0.1 a moment ago.

import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';

/**
 * A port on 127.0.0.1 that a server just listened on and closed: free for a child to bind right
 * after, and refused (ECONNREFUSED) until something does.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
