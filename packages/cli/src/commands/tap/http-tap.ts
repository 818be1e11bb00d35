// `mcpwire tap --http <url> --port <p>`: a reverse proxy on node:http in front of a Streamable HTTP
// server. It says where it listens on stderr (always: a script reads the port of `--port 0` there),
// records every exchange, and stops on SIGINT or SIGTERM.

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { coloursFor } from '../../terminal/colours.ts';
import { CliError, ExitCode } from '../../exit-code.ts';
import { forwardExchange, type ForwardContext } from './http-forward.ts';
import { RequestPolicy } from './http-policy.ts';
import { openTapRecording, type TapWireOptions } from './tap-recording.ts';

/** Where the HTTP tap listens, and what it records. */
export interface HttpTapOptions extends TapWireOptions {
  /** 0 picks a free port. */
  port: number;
  /** The interface; default 127.0.0.1. */
  host?: string;
}

/**
 * Proxies `upstream` until SIGINT or SIGTERM, then closes every connection (SSE streams included)
 * and the recording; resolves with exit code 0. Rejects with a CliError (exit 3) when it cannot listen.
 */
export async function runHttpTap(upstream: URL, options: HttpTapOptions): Promise<number> {
  const host = options.host ?? '127.0.0.1';
  const recording = await openTapRecording({ transport: 'http', target: upstream.href }, options);
  let exchanges = 0;
  const context: ForwardContext = {
    upstream,
    policy: new RequestPolicy(host),
    recorder: recording.recorder,
    nextExchange: () => ++exchanges,
    diagnose: recording.diagnose,
  };
  const server = createServer((incoming, outgoing) => forwardExchange(incoming, outgoing, context));
  // CONNECT would make the tap a tunnel to anywhere: refused (node:http would drop the socket silently).
  server.on('connect', (incoming: IncomingMessage, socket: Duplex) => {
    const text = `Bad Request: mcpwire tap forwards only to ${upstream.origin}; CONNECT is refused`;
    recording.recorder.record({ type: 'note', text: `refused CONNECT ${incoming.url ?? ''}: ${text}` });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await recording.close();
    throw new CliError(
      `cannot listen on ${host}:${options.port}: ${(error as Error).message}; choose another --port (0 picks a free one) or --host`,
      ExitCode.connection,
      { cause: error },
    );
  }
  const { port } = server.address() as AddressInfo;
  const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const url = `http://${authority}${upstream.pathname}${upstream.search}`;
  recording.recorder.record({ type: 'note', text: `listening on ${url}` });
  const colours = coloursFor(process.stderr);
  process.stderr.write(`mcpwire tap: forwarding ${colours.cyan(url)} to ${upstream.href}; Ctrl-C stops\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await recording.close();
  return ExitCode.ok;
}
