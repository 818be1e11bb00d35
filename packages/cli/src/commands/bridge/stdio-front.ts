// `mcpwire bridge <url>`: a remote MCP server (Streamable HTTP, or HTTP+SSE with --transport sse)
// offered on stdio. One host, one remote session: every message is passed on as it is, ids untouched,
// unless the remote refuses the host's handshake-era `initialize` and speaks 2026-07-28: then the
// host's session is translated (era-stdio.ts).

import type { Channel, ChannelReceiver, JsonRpcRequest, Message, RequestId, Transport } from 'mcpwire';
import {
  HttpError,
  SessionExpiredError,
  SseClientTransport,
  StreamableHttpClientTransport,
} from 'mcpwire/http';
import { createStdioServerChannel } from 'mcpwire/stdio';
import { ExitCode, type ExitCodeValue } from '../../exit-code.ts';
import type { CliAuthOptions } from '../../oauth/cli-oauth.ts';
import { toTerminalText } from '../../terminal/terminal-text.ts';
import { connectStatelessRemote, HandshakeToStatelessTranslator } from './era-stdio.ts';

/** What the stdio front needs: the remote, its headers, OAuth (undefined: none). */
export interface StdioFrontOptions {
  url: string;
  transport: 'streamable-http' | 'sse';
  headers: Record<string, string>;
  auth: CliAuthOptions | undefined;
  /** Wraps the host's channel (--trace, --record); the channel itself when absent. */
  wrapHost?: (channel: Channel) => Channel;
}

/**
 * What the host is told when the remote session ends: `note` ends the line said on stderr, `answer`
 * the error of each request still pending. On stdio the host must start the bridge again; an HTTP
 * client initializes again (`bridge --http <port> <url>`).
 */
export interface SessionEndWords {
  note: string;
  answer: string;
}

const STDIO_SESSION_END: SessionEndWords = {
  note: 'the host must start the bridge again (exit 3)',
  answer: 'restart the bridge to initialize again',
};

/** The JSON-RPC code the bridge answers pending host requests with when the remote session ended. */
export const REMOTE_SESSION_ENDED = -32_001;

/**
 * Relays the host on stdin/stdout to the remote until either side ends. Resolves with the exit code:
 * 0 when the host closed stdin (the remote session is deleted first); 3 when the remote ended the
 * session or failed, after answering every request still pending with an error that says so.
 */
export async function runStdioFront(options: StdioFrontOptions): Promise<ExitCodeValue> {
  const auth = options.auth === undefined ? undefined : await createAuth(options.url, options.auth);
  try {
    const transportOptions = { headers: options.headers, onError: note, ...auth?.transportOptions };
    const transport =
      options.transport === 'sse'
        ? new SseClientTransport(options.url, transportOptions)
        : new StreamableHttpClientTransport(options.url, transportOptions);
    const remote = await transport.connect();
    // The remote's answers come in one socket read each, so in ticks of their own: held to the end
    // of the turn, the answers of a pipelining host share one stdout write (bench/NOTES.md).
    const stdio = createStdioServerChannel({ coalesceUntil: 'turn' });
    const host = (options.wrapHost ?? ((channel: Channel) => channel))(stdio);
    // HTTP+SSE is handshake-era only: nothing to translate there.
    const stateless =
      options.transport === 'sse'
        ? undefined
        : () => new StreamableHttpClientTransport(options.url, transportOptions);
    return await new StdioRelay(host, remote, stateless).run();
  } finally {
    await auth?.[Symbol.asyncDispose]();
  }
}

async function createAuth(url: string, options: CliAuthOptions) {
  const { authBaseFetch, createCliAuth } = await import('../../oauth/cli-oauth.ts');
  return createCliAuth(url, options, { inner: authBaseFetch(url, options), isFetchWanted: false });
}

/** A diagnostic on stderr, escaped: the text may come from the remote. */
function note(error: Error | string): void {
  const text = typeof error === 'string' ? error : error.message;
  process.stderr.write(`mcpwire bridge: ${toTerminalText(text)}\n`);
}

/**
 * The two channels wired to each other; tracks the host's requests the remote has not answered.
 * The host's first `initialize` is watched: refused by a remote that speaks 2026-07-28, the relay
 * switches to translation (`#translator`) for the rest of the connection. The host's channel may be
 * any handshake-era connection: stdio here, an HTTP session for `bridge --http <port> <url>`.
 */
export class StdioRelay {
  readonly #host: Channel;
  readonly #remote: Channel;
  readonly #openStateless: (() => Transport) | undefined;
  readonly #pending = new Map<RequestId, JsonRpcRequest>();
  /** The host's `initialize` while its answer is awaited (the era is not decided yet). */
  #initialize: JsonRpcRequest | undefined;
  #isEraDecided = false;
  /** Host messages held while the bridge finds out whether the remote speaks 2026-07-28. */
  #held: Message[] | undefined;
  #translator: HandshakeToStatelessTranslator | undefined;
  #finish!: (code: ExitCodeValue) => void;
  #isDone = false;

  readonly #endWords: SessionEndWords;

  constructor(
    host: Channel,
    remote: Channel,
    openStateless?: () => Transport,
    endWords: SessionEndWords = STDIO_SESSION_END,
  ) {
    this.#endWords = endWords;
    this.#host = host;
    this.#remote = remote;
    this.#openStateless = openStateless;
  }

  /** Opens both channels; resolves with the exit code once either side has ended (see runStdioFront). */
  run(): Promise<ExitCodeValue> {
    const done = new Promise<ExitCodeValue>((resolve) => (this.#finish = resolve));
    this.#remote.open(this.#receiver(false));
    this.#host.open(this.#receiver(true));
    return done;
  }

  /** Ends the relay as the host leaving would (the remote session is deleted); idempotent. */
  stop(): Promise<void> {
    return this.#end(ExitCode.ok);
  }

  #receiver(isHost: boolean): ChannelReceiver {
    const deliver = (message: Message) => (isHost ? this.#fromHost(message) : this.#fromRemote(message));
    return {
      handleFrame: (frame: Parameters<ChannelReceiver['handleFrame']>[0]) => {
        for (const item of frame.type === 'batch' ? frame.items : [frame]) {
          if (item.type === 'message') deliver(item.message);
          // A line the host sent that is not JSON-RPC: it hears the error a server would give; from
          // the remote, the transport has already reported it.
          else if (isHost) void this.#host.send(item.response).catch(note);
        }
      },
      handleClose: (error) => (isHost ? void this.#end(ExitCode.ok) : this.#remoteClosed(error)),
    };
  }

  #fromHost(message: Message): void {
    if (this.#translator !== undefined) return this.#translator.handle(message);
    if (this.#held !== undefined) return void this.#held.push(message);
    if ('method' in message && 'id' in message) {
      this.#pending.set(message.id, message);
      if (message.method === 'initialize' && !this.#isEraDecided && this.#openStateless !== undefined)
        this.#initialize = message;
    }
    this.#remote.send(message).catch((error: unknown) => this.#remoteFailed(message, error));
  }

  #fromRemote(message: Message): void {
    if (this.#translator !== undefined) return;
    if (!('method' in message) && 'id' in message && message.id !== null) {
      if (message.id === this.#initialize?.id) {
        if ('error' in message) return void this.#tryTranslation(message);
        this.#eraDecided();
      }
      this.#pending.delete(message.id);
    }
    this.#host.send(message).catch(note);
  }

  #eraDecided(): void {
    this.#initialize = undefined;
    this.#isEraDecided = true;
  }

  /**
   * The remote refused the host's `initialize` (`refusal`, as the host would get it): if it speaks
   * 2026-07-28, the host's session is translated from now on; else the host gets the refusal.
   */
  async #tryTranslation(refusal: Message): Promise<void> {
    const initialize = this.#initialize!;
    this.#eraDecided();
    this.#held = [];
    try {
      const remote = await connectStatelessRemote(this.#openStateless!(), initialize, {
        note,
        remoteGone: (reason) => void this.#end(ExitCode.connection, reason),
      });
      this.#translator = new HandshakeToStatelessTranslator(this.#host, remote.client, remote.hostQueue, {
        note,
        remoteGone: (reason) => void this.#end(ExitCode.connection, reason),
      });
      this.#pending.delete(initialize.id);
      await this.#remote.close().catch(note);
      this.#translator.answerInitialize(initialize);
    } catch (error) {
      // Not a 2026-07-28 server either: the host hears the remote's own refusal.
      note(`the remote refused initialize and does not speak 2026-07-28 (${errorText(error)})`);
      this.#pending.delete(initialize.id);
      this.#host.send(refusal).catch(note);
    }
    const held = this.#held;
    this.#held = undefined;
    for (const message of held) this.#fromHost(message);
  }

  #remoteFailed(message: Message, error: unknown): void {
    const reason = error instanceof Error ? error : new Error(String(error));
    const initialize = this.#initialize;
    if (initialize !== undefined && message === initialize) {
      const refusal = { code: REMOTE_SESSION_ENDED, message: `the remote server failed: ${reason.message}` };
      return void this.#tryTranslation({ jsonrpc: '2.0', id: initialize.id, error: refusal });
    }
    // HTTP-30: a 404 to a request carrying the session id means the session is gone; the host
    // must initialize again, which only a new bridge (a new stdio connection) lets it do.
    const isSessionEnded =
      reason instanceof SessionExpiredError ||
      (reason instanceof HttpError && reason.status === 404 && this.#remote.info?.sessionId !== undefined);
    if (isSessionEnded) {
      note(`${reason.message}; ${this.#endWords.note}`);
      void this.#end(ExitCode.connection, reason.message);
      return;
    }
    note(reason);
    if ('method' in message && 'id' in message)
      this.#answer(message.id, `the remote server failed: ${reason.message}`);
  }

  #remoteClosed(error?: Error): void {
    if (this.#isDone || this.#translator !== undefined) return;
    const why = error?.message ?? 'the remote server closed the connection';
    note(`${why}; ${this.#endWords.note}`);
    void this.#end(ExitCode.connection, why);
  }

  #answer(id: RequestId, message: string): void {
    this.#pending.delete(id);
    const error = { code: REMOTE_SESSION_ENDED, message };
    void this.#host.send({ jsonrpc: '2.0', id, error }).catch(note);
  }

  /** Ends both sides once: pending host requests answered (when the remote is gone), then close. */
  async #end(code: ExitCodeValue, remoteGone?: string): Promise<void> {
    if (this.#isDone) return;
    this.#isDone = true;
    if (remoteGone !== undefined)
      this.#translator?.failPending(
        `mcpwire bridge: the remote server failed (${remoteGone}); ${this.#endWords.answer}`,
      );
    await this.#translator?.close();
    if (remoteGone !== undefined)
      for (const id of [...this.#pending.keys()])
        this.#answer(
          id,
          `mcpwire bridge: the remote session ended (${remoteGone}); ${this.#endWords.answer}`,
        );
    await this.#remote.close().catch(note);
    await this.#host.close().catch(note);
    this.#finish(code);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
