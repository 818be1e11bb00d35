// A lean HTTP/1.1 keep-alive client for the load generator: one net.Socket, requests written as one
// preformatted buffer, responses parsed by hand (status line, headers, Content-Length or chunked body).
// node:http's client costs the load generator more CPU per request than a lean server spends answering it;
// on a 2-core machine that caps every server at the driver's own ceiling. With this client the bare
// node:http reference server reaches several times the rate it reaches under node:http's Agent, so the
// servers, not the driver, set the figures. It speaks only what the bench needs: POST, in order, no pipelining.
import { connect, type Socket } from 'node:net';

/** One HTTP response, read to the end. */
export interface HttpAnswer {
  status: number;
  contentType: string;
  sessionId: string | undefined;
  body: string;
}

interface Pending {
  resolve: (answer: HttpAnswer) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** A keep-alive connection to one origin; `post` calls are serialised (one request in flight). */
export class RawHttpConnection {
  /** When the last request was handed to the socket (performance.now() ms). */
  sentAt = NaN;
  /** When the last response was read whole, before its promise settled (performance.now() ms). */
  answeredAt = NaN;
  readonly #url: URL;
  #socket: Socket | undefined;
  #buffer: Buffer = Buffer.alloc(0);
  #pending: Pending | undefined;
  #head: { status: number; headers: Map<string, string> } | undefined;
  #bodyStart = 0;
  #closed = false;
  readonly #timeoutMs: number;

  /** `timeoutMs`: how long a `post` waits by default (a server under valgrind needs longer at first). */
  constructor(url: URL, timeoutMs = 10_000) {
    this.#url = url;
    this.#timeoutMs = timeoutMs;
  }

  /** POSTs `body` (JSON) with `headers` and resolves with the whole response. */
  post(headers: Record<string, string>, body: string, timeoutMs = this.#timeoutMs): Promise<HttpAnswer> {
    if (this.#pending) return Promise.reject(new Error('RawHttpConnection: one request at a time'));
    if (this.#closed) return Promise.reject(new Error('RawHttpConnection: closed'));
    const socket = this.#connect();
    const payload = Buffer.from(body, 'utf8');
    let head =
      `POST ${this.#url.pathname} HTTP/1.1\r\nhost: ${this.#url.host}\r\n` +
      `content-type: application/json\r\ncontent-length: ${payload.length}\r\n`;
    for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
    const request = Buffer.concat([Buffer.from(head + '\r\n', 'latin1'), payload]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#fail(new Error(`no response within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending = { resolve, reject, timer };
      this.sentAt = performance.now();
      socket.write(request);
    });
  }

  close(): void {
    this.#closed = true;
    this.#socket?.destroy();
    this.#socket = undefined;
  }

  #connect(): Socket {
    if (this.#socket && !this.#socket.destroyed) return this.#socket;
    const socket = connect({ host: this.#url.hostname, port: Number(this.#url.port), noDelay: true });
    this.#buffer = Buffer.alloc(0);
    this.#head = undefined;
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('error', (error) => this.#fail(error));
    socket.on('close', () => {
      if (this.#socket === socket) this.#socket = undefined;
      this.#fail(new Error('connection closed before the response ended'));
    });
    this.#socket = socket;
    return socket;
  }

  #fail(error: Error): void {
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = undefined;
    clearTimeout(pending.timer);
    this.#socket?.destroy();
    this.#socket = undefined;
    pending.reject(error);
  }

  #onData(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    if (!this.#pending) {
      this.#fail(new Error('bytes received with no request in flight'));
      return;
    }
    if (this.#head === undefined) {
      const end = this.#buffer.indexOf(CRLF2);
      if (end === -1) return;
      const lines = this.#buffer.toString('latin1', 0, end).split('\r\n');
      const status = Number(lines[0]!.split(' ')[1]);
      const headers = new Map<string, string>();
      for (let i = 1; i < lines.length; i++) {
        const line = lines[i]!;
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      this.#head = { status, headers };
      this.#bodyStart = end + 4;
    }
    const { status, headers } = this.#head;
    let body: Buffer | undefined;
    let consumed = 0;
    const length = headers.get('content-length');
    if (length !== undefined) {
      const end = this.#bodyStart + Number(length);
      if (this.#buffer.length < end) return;
      body = this.#buffer.subarray(this.#bodyStart, end);
      consumed = end;
    } else if (headers.get('transfer-encoding')?.toLowerCase() === 'chunked') {
      const parsed = parseChunked(this.#buffer, this.#bodyStart);
      if (parsed === undefined) return;
      [body, consumed] = parsed;
    } else if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
      body = Buffer.alloc(0);
      consumed = this.#bodyStart;
    } else {
      this.#fail(new Error(`HTTP ${status} without Content-Length or chunked body`));
      return;
    }
    this.answeredAt = performance.now();
    const pending = this.#pending;
    this.#pending = undefined;
    clearTimeout(pending.timer);
    this.#buffer = this.#buffer.subarray(consumed);
    this.#head = undefined;
    if (headers.get('connection')?.toLowerCase() === 'close') {
      this.#socket?.destroy();
      this.#socket = undefined;
    }
    pending.resolve({
      status,
      contentType: headers.get('content-type') ?? '',
      sessionId: headers.get('mcp-session-id'),
      body: body.toString('utf8'),
    });
  }
}

/** Decodes a chunked body starting at `offset`; undefined until the terminating chunk has arrived. */
function parseChunked(buffer: Buffer, offset: number): [Buffer, number] | undefined {
  const parts: Buffer[] = [];
  let at = offset;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at, 'latin1');
    if (lineEnd === -1) return undefined;
    const size = parseInt(buffer.toString('latin1', at, lineEnd).split(';')[0]!, 16);
    if (Number.isNaN(size)) throw new Error('bad chunk size');
    if (size === 0) {
      // Last chunk: no trailers expected, just the final CRLF.
      const end = buffer.indexOf('\r\n', lineEnd + 2, 'latin1');
      if (end === -1) return undefined;
      return [Buffer.concat(parts), end + 2];
    }
    const dataEnd = lineEnd + 2 + size;
    if (buffer.length < dataEnd + 2) return undefined;
    parts.push(buffer.subarray(lineEnd + 2, dataEnd));
    at = dataEnd + 2;
  }
}
