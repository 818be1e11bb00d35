// The redirect URI of the browser flow (RFC 8252 §7.3): a listener on 127.0.0.1, a random port, path
// /callback, that takes the one authorization response the flow waits for and answers the browser
// with a small page saying the tab can be closed.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { CliError, ExitCode } from '../exit-code.ts';

/** The path the authorization server redirects to. */
export const CALLBACK_PATH = '/callback';

const PAGE_STYLE = 'body{font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}';

/** A listening redirect endpoint; async-disposable (closes the socket). */
export class LoopbackRedirect implements AsyncDisposable {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly redirectUri: string;
  readonly #server: Server;
  #waiting: { state: string; resolve: (url: URL) => void } | undefined;

  private constructor(server: Server, port: number) {
    this.#server = server;
    this.redirectUri = `http://127.0.0.1:${port}${CALLBACK_PATH}`;
    server.on('request', (request, response) => this.#handle(request, response));
  }

  /** Listens on 127.0.0.1 on a port the system picks. The socket does not keep the process alive. */
  static async listen(): Promise<LoopbackRedirect> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    server.unref();
    return new LoopbackRedirect(server, (server.address() as { port: number }).port);
  }

  /**
   * Resolves with the URL of the first request to /callback carrying `state` (or an `error`), after
   * `timeoutMs`; rejects with a CliError (exit 3) saying what to do when nothing came. One wait at a time.
   */
  async waitForRedirect(state: string, timeoutMs: number): Promise<URL> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<URL>((resolve, reject) => {
        this.#waiting = { state, resolve };
        timer = setTimeout(() => {
          reject(
            new CliError(
              `no authorization response reached ${this.redirectUri} within ${Math.round(timeoutMs / 1000)} s: ` +
                'open the URL above, approve the request, and keep this command running until the browser ' +
                'says you can close the tab (or give more time with --auth-timeout <seconds>)',
              ExitCode.connection,
            ),
          );
        }, timeoutMs);
      });
    } finally {
      clearTimeout(timer);
      this.#waiting = undefined;
    }
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', this.redirectUri);
    const waiting = this.#waiting;
    if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      page(response, 404, 'Not found', 'This is the redirect address of a mcpwire command.');
      return;
    }
    const error = url.searchParams.get('error');
    if (waiting === undefined || (url.searchParams.get('state') !== waiting.state && error === null)) {
      page(response, 400, 'Unexpected response', 'No authorization with this state is waiting here.');
      return;
    }
    if (error === null)
      page(response, 200, 'Authorization received', 'You can close this tab and return to the terminal.');
    else
      page(
        response,
        400,
        'Authorization refused',
        `The authorization server answered ${error}. The terminal says what happens next.`,
      );
    waiting.resolve(url);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

function page(response: ServerResponse, status: number, title: string, text: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(
    `<!doctype html><meta charset="utf-8"><title>mcpwire: ${title}</title><style>${PAGE_STYLE}</style>` +
      `<h1>${title}</h1><p>${text}</p>`,
  );
}
