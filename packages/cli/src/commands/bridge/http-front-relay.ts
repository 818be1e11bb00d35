// `mcpwire bridge --http`: each handshake-era HTTP session relayed to a stdio child of its own. The
// HTTP handler gives a session's Channel to `connect`; the relay spawns the child and passes every
// message on as it is (one child per session, so no id needs remapping), choosing only which HTTP
// stream a message of the child's goes on.

import {
  decodeFrame,
  ErrorCode,
  isRequest,
  isResponse,
  type Channel,
  type Frame,
  type Message,
  type RequestId,
} from 'mcpwire';
import { ProcessExitError, StdioClientTransport, type StdioClientChannel } from 'mcpwire/stdio';

/** The command of the stdio server, run without a shell. */
export interface ChildCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** What the relays need besides the command. */
export interface ChildRelayOptions {
  readonly child: ChildCommand;
  /** How long each shutdown step (stdin closed, SIGTERM, SIGKILL) waits for a child; the library's default when absent. */
  readonly shutdownTimeoutMs?: number;
  /** A chunk of a child's stderr, decoded; `pid` says whose. */
  readonly onStderr: (pid: number | undefined, text: string) => void;
  /** A note of the bridge's own about a session (a child that could not start, a line that is not JSON-RPC). */
  readonly onNote: (text: string) => void;
  /**
   * Deletes the session's record from the handler's session store: a session whose child is gone
   * must answer 404, never be brought back to life from its record with a child never initialized.
   */
  readonly forgetSession: (sessionId: string) => unknown;
}

/**
 * A server for `createHttpHandler` whose every session is a child process: `connect` spawns one
 * (the session's `initialize` waits for it), and the session's end stops it (LIFE-13: stdin closed,
 * SIGTERM, SIGKILL). A child that exits ends its session: its requests in flight get an error
 * response naming the exit code or signal, and the session id is then unknown (404).
 */
export class ChildRelayServer {
  readonly #options: ChildRelayOptions;
  readonly #relays = new Set<SessionRelay>();

  constructor(options: ChildRelayOptions) {
    this.#options = options;
  }

  /** Sessions with a child starting or running. */
  get size(): number {
    return this.#relays.size;
  }

  connect(front: Channel): void {
    const relay = new SessionRelay(front, this.#options, () => this.#relays.delete(relay));
    this.#relays.add(relay);
    void relay.start();
  }

  /** Ends every session and stops its child; resolves once every child has exited. */
  async close(): Promise<void> {
    await Promise.all([...this.#relays].map((relay) => relay.close()));
  }
}

/** One session and its child. */
class SessionRelay {
  readonly #front: Channel;
  readonly #options: ChildRelayOptions;
  readonly #onEnd: () => void;
  #child: StdioClientChannel | undefined;
  /** The client's requests the child has not answered, in arrival order. */
  readonly #pending = new Set<RequestId>();
  /** Progress tokens of pending requests -> their request: progress goes on its request's stream. */
  readonly #progress = new Map<string | number, RequestId>();
  #backlog: Frame[] | undefined = [];
  #spawning: Promise<StdioClientChannel | undefined> | undefined;
  #closing: Promise<void> | undefined;

  constructor(front: Channel, options: ChildRelayOptions, onEnd: () => void) {
    this.#front = front;
    this.#options = options;
    this.#onEnd = onEnd;
  }

  /** Opens the session and starts the child; what the client sent meanwhile waits for it. */
  async start(): Promise<void> {
    this.#front.open({
      handleFrame: (frame) => this.#fromClient(frame),
      handleClose: () => void this.close(),
    });
    this.#spawning = this.#spawn();
    const child = await this.#spawning;
    // Ended while it started: close() stops it (it waits for #spawning).
    if (child === undefined || this.#closing !== undefined) return;
    child.open({
      handleFrame: (frame) => this.#fromChild(frame),
      handleClose: (error) => void this.#childGone(error),
    });
    // Each line decoded here, so a response can go on with the text the child wrote (byte-exact,
    // issue 25) rather than encoded again; an oversize line still reaches handleFrame as its error.
    child.takeLines((line) => {
      this.#fromChild(decodeFrame(line), line);
      return true;
    });
    const backlog = this.#backlog ?? [];
    this.#backlog = undefined;
    for (const frame of backlog) this.#fromClient(frame);
  }

  /** The child, once spawned; undefined (the session ended, its requests answered) when it cannot start. */
  async #spawn(): Promise<StdioClientChannel | undefined> {
    const { command, args } = this.#options.child;
    try {
      this.#child = await new StdioClientTransport({
        command,
        args,
        // The user started the bridge from their shell: the server gets that environment, as a
        // shell would give it (its API keys, for one), not the allow-list a host's client uses.
        env: inheritedEnvironment(),
        stderr: (text) => this.#options.onStderr(this.#child?.info.pid, text),
        ...(this.#options.shutdownTimeoutMs === undefined
          ? {}
          : { shutdownTimeoutMs: this.#options.shutdownTimeoutMs }),
      }).connect();
      return this.#child;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.#options.onNote(reason);
      await this.#failPending(`mcpwire bridge: ${reason}`, {});
      void this.close();
      return undefined;
    }
  }

  /** Ends the session and stops the child; idempotent, resolves once the child has exited. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const sessionId = this.#front.info?.sessionId;
      if (sessionId !== undefined) await this.#options.forgetSession(sessionId);
      await this.#front.close();
      // A child still starting is stopped once it has (the bridge must leave none behind).
      await this.#spawning;
      await this.#child?.close();
      this.#onEnd();
    })();
    return this.#closing;
  }

  #fromClient(frame: Frame): void {
    if (this.#backlog !== undefined) {
      if (frame.type !== 'invalid') this.#backlog.push(frame);
      return this.#answerInvalid(frame);
    }
    if (frame.type === 'invalid') return this.#answerInvalid(frame);
    const messages = frame.type === 'batch' ? frame.items.flatMap(messagesOf) : [frame.message];
    for (const message of messages) this.#noteClientMessage(message);
    if (frame.type === 'batch') {
      for (const item of frame.items) this.#answerInvalid(item);
      if (messages.length > 0) this.#toChild(messages);
    } else this.#toChild(frame.message, frame.text);
  }

  #noteClientMessage(message: Message): void {
    if ((message as { method?: unknown }).method === 'notifications/cancelled') {
      // The child will not answer it (CANCEL-5): its stream, which the client may have left, no
      // longer takes the child's other messages.
      const requestId = (message as { params?: { requestId?: unknown } }).params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.#settled(requestId);
      return;
    }
    if (!isRequest(message)) return;
    this.#pending.add(message.id);
    const token = (message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
    if (typeof token === 'string' || typeof token === 'number') this.#progress.set(token, message.id);
  }

  /**
   * `text`: the client's JSON text of `message` (the POST body, validated as one message, its ids
   * the child's own since the child is the session's alone), which goes to the child as it came
   * (issue 25, byte-exact).
   */
  #toChild(message: Message | readonly Message[], text?: string): void {
    const child = this.#child;
    if (child === undefined) return;
    // A false writeRaw, or a failed send, means the child is gone; #childGone answers what is pending.
    if (text !== undefined) child.writeRaw(toOneLine(text) + '\n');
    else child.send(message).catch(() => {});
  }

  #answerInvalid(frame: Frame): void {
    if (frame.type === 'invalid' && frame.response.id !== null)
      this.#front.send(frame.response).catch(() => {});
  }

  /** `line`: the text of a frame read as one line, which a single response is passed on as. */
  #fromChild(frame: Frame, line?: string): void {
    if (frame.type === 'invalid') {
      this.#options.onNote(`the server wrote a line that is not JSON-RPC (${frame.response.error.message})`);
      return;
    }
    if (frame.type === 'message') return this.#toClient(frame.message, line);
    for (const message of frame.items.flatMap(messagesOf)) this.#toClient(message);
  }

  #toClient(message: Message, line?: string): void {
    const isAnswer = isResponse(message);
    if (isAnswer && message.id !== undefined && message.id !== null) this.#settled(message.id);
    // A response has no related request (it finds its own stream): the two options never meet, and
    // one small object, or none, is made per message (this runs for every message of the child's).
    const related = isAnswer ? undefined : this.#relatedRequest(message);
    const sent = this.#front.send(
      message,
      related !== undefined
        ? { relatedRequestId: related }
        : isAnswer && line !== undefined
          ? { text: line }
          : undefined,
    );
    // Only a request needs a closure of its own; any other message's failure is ignored.
    if (!isRequest(message)) return void sent.catch(ignore);
    sent.catch((error: unknown) => {
      // A request of the child's with no stream to go on would wait forever: answer it at once.
      const reason = error instanceof Error ? error.message : String(error);
      this.#toChild({
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: ErrorCode.InternalError,
          message: `mcpwire bridge: cannot reach the client (${reason})`,
        },
      });
    });
  }

  /**
   * The client request a message of the child's belongs with, whose POST stream carries it: a
   * progress notification's by its token; a request or another notification sent while requests are
   * pending, the latest one (stdio says nothing of relations, and an open POST stream is where a
   * client surely listens); else none (the session's GET stream). A response finds its own.
   */
  #relatedRequest(message: Message): RequestId | undefined {
    if (isResponse(message)) return undefined;
    const method = (message as { method: string }).method;
    if (method === 'notifications/progress') {
      const token = (message as { params?: { progressToken?: unknown } }).params?.progressToken;
      return typeof token === 'string' || typeof token === 'number' ? this.#progress.get(token) : undefined;
    }
    let latest: RequestId | undefined;
    for (const id of this.#pending) latest = id;
    return latest;
  }

  #settled(id: RequestId): void {
    this.#pending.delete(id);
    for (const [token, request] of this.#progress) if (request === id) this.#progress.delete(token);
  }

  /** The child exited (or closed its stdout) while the session was live: fail what is pending, end the session. */
  async #childGone(error: Error | undefined): Promise<void> {
    if (this.#closing !== undefined) return;
    const status =
      error instanceof ProcessExitError
        ? { exitCode: error.exitCode, signal: error.signal }
        : ({} as Record<string, unknown>);
    const how =
      error instanceof ProcessExitError
        ? error.signal === null
          ? `exited with code ${String(error.exitCode)}`
          : `was killed by signal ${error.signal}`
        : 'closed its output';
    this.#options.onNote(`the server process ${how}; its session is over`);
    await this.#failPending(
      `mcpwire bridge: the server process ${how}; initialize again for a new one`,
      status,
    );
    await this.close();
  }

  async #failPending(message: string, data: Record<string, unknown>): Promise<void> {
    const ids = [...this.#pending, ...(this.#backlog ?? []).flatMap(requestIdsOf)];
    this.#pending.clear();
    this.#progress.clear();
    await Promise.all(
      ids.map((id) =>
        this.#front
          .send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message, data } })
          .catch(() => {}),
      ),
    );
  }
}

/**
 * The JSON text as one stdio line. A raw CR or LF in valid JSON text can only be whitespace between
 * tokens (in a string it must be escaped), so a space in its place leaves the message the same, while
 * the child, reading lines, would otherwise take it for two messages or a broken one.
 */
function toOneLine(text: string): string {
  return text.includes('\n') || text.includes('\r') ? text.replace(/[\r\n]/g, ' ') : text;
}

function ignore(): void {}

function messagesOf(item: Exclude<Frame, { type: 'batch' }>): Message[] {
  return item.type === 'message' ? [item.message] : [];
}

function requestIdsOf(frame: Frame): RequestId[] {
  const messages =
    frame.type === 'batch'
      ? frame.items.flatMap(messagesOf)
      : frame.type === 'message'
        ? [frame.message]
        : [];
  return messages.filter(isRequest).map((request) => request.id);
}

/** Our environment with its unset values left out, for the child. */
export function inheritedEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  return env;
}
