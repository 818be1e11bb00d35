// A raw TCP client for the HTTP abuse tests: bytes written exactly as given (slowly, if asked), and
// everything the server sends back collected until it closes the connection.

import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/** One raw connection to 127.0.0.1:`port`. Async-disposable: disposing destroys the socket. */
export class RawConnection {
  readonly socket: Socket;
  /** Everything received so far, as latin1 text (byte for byte). */
  received = '';
  /** Settles when the server has closed the connection (or it failed). */
  readonly closed: Promise<void>;
  #isClosed = false;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (this.received += chunk));
    this.closed = new Promise((resolve) => {
      socket.on('close', () => {
        this.#isClosed = true;
        resolve();
      });
      socket.on('error', () => {});
    });
  }

  /** Connects; resolves once the socket is open. */
  static async open(port: number): Promise<RawConnection> {
    const socket = connect({ host: '127.0.0.1', port });
    await once(socket, 'connect');
    return new RawConnection(socket);
  }

  /** True once the server has closed the connection. */
  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** Writes `bytes` at once. */
  write(bytes: string | Uint8Array): void {
    this.socket.write(bytes);
  }

  /**
   * Writes `bytes` one byte every `everyMs`, stopping early once the connection closes or `stop`
   * returns true; resolves with how many bytes were written.
   */
  async drip(bytes: string, everyMs: number, stop: () => boolean = () => false): Promise<number> {
    let sent = 0;
    for (const byte of bytes) {
      if (this.#isClosed || stop()) break;
      this.socket.write(byte);
      sent++;
      await delay(everyMs);
    }
    return sent;
  }

  /** Resolves once `pattern` matches what was received (or rejects if the connection closes first). */
  async until(pattern: RegExp): Promise<string> {
    while (!pattern.test(this.received)) {
      if (this.#isClosed)
        throw new Error(`The connection closed before ${pattern}; received: ${this.received}`);
      await Promise.race([once(this.socket, 'data'), this.closed]);
    }
    return this.received;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.socket.destroy();
    await this.closed;
  }
}

/** A request head (and body) as raw text: the request line, headers, a blank line, then `body`. */
export function rawRequest(
  method: string,
  path: string,
  headers: ReadonlyArray<readonly [string, string]>,
  body = '',
): string {
  const lines = [`${method} ${path} HTTP/1.1`, ...headers.map(([name, value]) => `${name}: ${value}`)];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
