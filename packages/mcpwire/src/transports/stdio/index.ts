// The public stdio API (`mcpwire/stdio`): the server's channel over process stdio, and the client's
// transport that spawns a server process.

export { createStdioServerChannel, type StdioServerChannelOptions } from './stdio-server-channel.ts';
export { serveStdio, type ChannelServer } from './serve-stdio.ts';
export {
  StdioClientTransport,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  type StdioClientTransportOptions,
} from './stdio-client-transport.ts';
export type { StdioClientChannel, RawLineListener, RawLineBytesListener } from './stdio-client-channel.ts';
export type { StderrOption } from './stderr-capture.ts';
export { ProcessSpawnError, ProcessExitError, type ExitStatus } from './process-errors.ts';
export { shutdownProcess } from './process-shutdown.ts';
export { createChildEnvironment, POSIX_INHERITED_ENV, WINDOWS_INHERITED_ENV } from './safe-env.ts';
export {
  NdjsonSplitter,
  DEFAULT_MAX_MESSAGE_BYTES,
  type NdjsonLine,
  type NdjsonSplitterOptions,
} from './ndjson.ts';
