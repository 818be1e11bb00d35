// `mcpwire serve <name>` over stdio: protocol messages only on stdout, diagnostics on stderr, and the
// process ends when the client closes stdin (STDIO-2, LIFE-13).

import type { Channel } from '../index.ts';
import type { Server } from '../server/index.ts';
import { createStdioServerChannel } from '../transports/stdio/index.ts';
import type { ServerName } from './arguments.ts';
import { createEverythingServer } from './servers/everything.ts';
import { createGithubServer } from './servers/github.ts';

/** The factory of each server `serve` can run. */
export const SERVER_FACTORIES: Record<ServerName, () => Server> = {
  everything: createEverythingServer,
  github: createGithubServer,
};

/**
 * Serves `server` on this process's stdin/stdout until the channel closes (stdin ends or fails, or
 * stdout breaks), then closes the server. Resolves once everything is released.
 */
export async function serveStdio(server: Server): Promise<void> {
  const [channel, closed] = watchClose(createStdioServerChannel());
  server.connect(channel);
  await closed;
  await server.close();
}

/** Wraps `channel` to learn when it closes; the receiver still hears `handleClose` first. */
function watchClose(channel: Channel): [Channel, Promise<void>] {
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const watched: Channel = {
    open(receiver) {
      channel.open({
        handleFrame: (frame) => receiver.handleFrame(frame),
        handleClose: (error) => {
          receiver.handleClose(error);
          markClosed();
        },
      });
    },
    send: (message) => channel.send(message),
    close: () => channel.close(),
    ...(channel.info === undefined ? {} : { info: channel.info }),
  };
  return [watched, closed];
}
