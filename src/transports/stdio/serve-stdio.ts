// Serving a server definition over this process's stdio: the one-line entry point for servers.

import type { Channel } from '../channel.ts';
import { createStdioServerChannel, type StdioServerChannelOptions } from './stdio-server-channel.ts';

/** What serveStdio needs of a server: anything that serves a channel (mcpwire's `Server` does). */
export interface ChannelServer {
  connect(channel: Channel): unknown;
  close?(): Promise<void>;
}

/**
 * Connects `server` to stdin/stdout (NDJSON, with the stdout guard) and resolves once the
 * connection ends (stdin closed or stdout broken) and the server is closed. With nothing else
 * keeping it alive, the process then exits on its own (S26-STDIO-5, LIFE-13).
 */
export async function serveStdio(
  server: ChannelServer,
  options: StdioServerChannelOptions = {},
): Promise<void> {
  const inner = createStdioServerChannel(options);
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const channel: Channel = {
    open: (receiver) =>
      inner.open({
        handleFrame: (frame) => receiver.handleFrame(frame),
        handleClose: (error) => {
          receiver.handleClose(error);
          markClosed();
        },
      }),
    send: (message) => inner.send(message),
    close: () => inner.close(),
    ...(inner.info ? { info: inner.info } : {}),
  };
  server.connect(channel);
  await closed;
  await server.close?.();
}
