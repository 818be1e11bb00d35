// Serving a server definition over this process's stdio: the one-line entry point for servers.

import type { Channel, ChannelServer } from '../channel.ts';

export type { ChannelServer };
import { createStdioServerChannel, type StdioServerChannelOptions } from './stdio-server-channel.ts';

/**
 * Connects `server` to stdin/stdout (NDJSON, with the stdout guard) and resolves once the
 * connection ends (stdin closed or stdout broken), the server is closed and the responses queued
 * for a slow stdout are written (stdin closing loses none of them). With nothing else
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
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
    ...(inner.info ? { info: inner.info } : {}),
  };
  server.connect(channel);
  await closed;
  await server.close?.();
  // Resolves only once the responses queued for a slow stdout are written.
  await inner.close();
}
