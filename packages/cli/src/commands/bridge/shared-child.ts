// `mcpwire bridge --http --shared`: every handshake-era session relayed to one stdio child, for servers
// that keep nothing per connection. The child is initialized once (by the first session's initialize);
// ids are remapped in shared-ids.ts only; the child stops when its last session ends or it exits.

import {
  ErrorCode,
  type Channel,
  type Frame,
  type JsonRpcResponse,
  type Message,
  type RequestId,
} from 'mcpwire';
import { ProcessExitError, StdioClientTransport, type StdioClientChannel } from 'mcpwire/stdio';
import { inheritedEnvironment, type ChildRelayOptions } from './http-front-relay.ts';
import { SharedIdTable } from './shared-ids.ts';

/** The id of the one `initialize` the bridge sends a shared child (no client id is a string of this form). */
const INITIALIZE_ID = 'mcpwire-shared-initialize';

/**
 * A server for `createHttpHandler` whose sessions all share one child process: `connect` starts it if
 * none runs. A child that exits ends every session (their requests in flight get an error naming the
 * exit; their ids are then 404); the next `initialize` starts another.
 */
export class SharedChildServer {
  readonly #options: ChildRelayOptions;
  #current: SharedChild | undefined;
  readonly #children = new Set<SharedChild>();

  constructor(options: ChildRelayOptions) {
    this.#options = options;
  }

  /** Sessions open (every one on the shared child). */
  get size(): number {
    let total = 0;
    for (const child of this.#children) total += child.sessions;
    return total;
  }

  connect(front: Channel): void {
    if (this.#current === undefined || this.#current.isEnding) {
      const child = new SharedChild(this.#options, () => {
        this.#children.delete(child);
        if (this.#current === child) this.#current = undefined;
      });
      this.#children.add(child);
      this.#current = child;
    }
    this.#current.add(front);
  }

  /** Ends every session and stops the child; resolves once it has exited. */
  async close(): Promise<void> {
    await Promise.all([...this.#children].map((child) => child.close()));
  }
}

/** One child and the sessions on it. */
class SharedChild {
  readonly #options: ChildRelayOptions;
  readonly #onEnd: () => void;
  readonly #ids = new SharedIdTable<Channel>();
  readonly #sessions = new Set<Channel>();
  readonly #spawning: Promise<StdioClientChannel | undefined>;
  #child: StdioClientChannel | undefined;
  /** The child's answer to its one initialize, once it came; then every session's initialize gets it. */
  #initialized: JsonRpcResponse | undefined;
  /** Sessions' initialize requests waiting for that answer. */
  #initializeWaiters: Array<{ front: Channel; id: RequestId }> | undefined;
  #closing: Promise<void> | undefined;
  /** Why the child could not start, once it could not. */
  #spawnError: string | undefined;

  constructor(options: ChildRelayOptions, onEnd: () => void) {
    this.#options = options;
    this.#onEnd = onEnd;
    this.#spawning = this.#spawn();
  }

  get sessions(): number {
    return this.#sessions.size;
  }

  /** True once the child is stopping: a new session must get another. */
  get isEnding(): boolean {
    return this.#closing !== undefined;
  }

  add(front: Channel): void {
    this.#sessions.add(front);
    front.open({
      handleFrame: (frame) => void this.#fromClient(front, frame),
      handleClose: () => void this.#endSession(front),
    });
  }

  /** Ends every session and stops the child; idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.all([...this.#sessions].map((front) => this.#forget(front)));
      await this.#spawning;
      await this.#child?.close();
      this.#onEnd();
    })();
    return this.#closing;
  }

  async #spawn(): Promise<StdioClientChannel | undefined> {
    const { command, args } = this.#options.child;
    try {
      const child = await new StdioClientTransport({
        command,
        args,
        env: inheritedEnvironment(),
        stderr: (text) => this.#options.onStderr(this.#child?.info.pid, text),
        ...(this.#options.shutdownTimeoutMs === undefined
          ? {}
          : { shutdownTimeoutMs: this.#options.shutdownTimeoutMs }),
      }).connect();
      this.#child = child;
      child.open({
        handleFrame: (frame) => this.#fromChild(frame),
        handleClose: (error) => void this.#childGone(error),
      });
      return child;
    } catch (error) {
      this.#spawnError = error instanceof Error ? error.message : String(error);
      this.#options.onNote(this.#spawnError);
      return undefined;
    }
  }

  async #fromClient(front: Channel, frame: Frame): Promise<void> {
    if (frame.type === 'invalid') {
      if (frame.response.id !== null) await front.send(frame.response).catch(() => {});
      return;
    }
    const messages = frame.type === 'batch' ? frame.items.flatMap(messagesOf) : [frame.message];
    const child = await this.#spawning;
    if (child === undefined) {
      // Every request waiting for the child gets the reason it could not start; the sessions end.
      const error = {
        code: ErrorCode.InternalError,
        message: `mcpwire bridge: ${this.#spawnError}`,
        data: {},
      };
      for (const message of messages)
        if ('method' in message && 'id' in message)
          await front.send({ jsonrpc: '2.0', id: message.id, error }).catch(() => {});
      return void this.close();
    }
    if (this.#closing !== undefined) return;
    const toChild: Message[] = [];
    for (const message of messages) {
      if ('method' in message && message.method === 'initialize' && 'id' in message) {
        this.#initialize(front, message.id, message.params);
        continue;
      }
      // The child was initialized once, by the bridge: the sessions' own notices are not its.
      if ('method' in message && message.method === 'notifications/initialized') continue;
      const remapped = this.#ids.toChild(front, message);
      if (remapped !== undefined) toChild.push(remapped);
    }
    if (toChild.length > 0) child.send(toChild.length === 1 ? toChild[0]! : toChild).catch(() => {});
  }

  /** A session's initialize: the child's one answer, under the session's id (the first one asks the child). */
  #initialize(front: Channel, id: RequestId, params: unknown): void {
    if (this.#initialized !== undefined) {
      front.send({ ...this.#initialized, id }).catch(() => {});
      return;
    }
    const isFirst = this.#initializeWaiters === undefined;
    (this.#initializeWaiters ??= []).push({ front, id });
    if (!isFirst) return;
    const request = {
      jsonrpc: '2.0' as const,
      id: INITIALIZE_ID,
      method: 'initialize',
      params: params as object,
    };
    this.#child?.send(request as Message).catch(() => {});
  }

  #fromChild(frame: Frame): void {
    if (frame.type === 'invalid') {
      this.#options.onNote(`the server wrote a line that is not JSON-RPC (${frame.response.error.message})`);
      return;
    }
    const messages = frame.type === 'batch' ? frame.items.flatMap(messagesOf) : [frame.message];
    for (const message of messages) this.#toClients(message);
  }

  #toClients(message: Message): void {
    if (!('method' in message) && message.id === INITIALIZE_ID) return this.#initializeAnswered(message);
    const route = this.#ids.fromChild(message);
    if (route.to === 'none') {
      // A request of the child's with no session to take it would wait forever: answer it at once.
      if ('method' in message && 'id' in message) this.#refuse(message.id, route.reason);
      return;
    }
    if (route.to === 'session') {
      const sent = route.session.send(
        route.message,
        route.related === undefined ? undefined : { relatedRequestId: route.related },
      );
      sent.catch((error: unknown) => {
        if ('method' in message && 'id' in message)
          this.#refuse(
            message.id,
            `cannot reach the client (${error instanceof Error ? error.message : String(error)})`,
          );
      });
      return;
    }
    for (const front of this.#sessions) {
      const related = this.#ids.latestOf(front);
      front
        .send(route.message, related === undefined ? undefined : { relatedRequestId: related })
        .catch(() => {});
    }
  }

  #initializeAnswered(answer: JsonRpcResponse): void {
    const waiters = this.#initializeWaiters ?? [];
    if ('result' in answer) {
      this.#initialized = answer;
      this.#child?.send({ jsonrpc: '2.0', method: 'notifications/initialized' }).catch(() => {});
      this.#initializeWaiters = undefined;
    } else this.#initializeWaiters = undefined; // Refused: the next initialize asks again.
    for (const { front, id } of waiters) front.send({ ...answer, id }).catch(() => {});
  }

  #refuse(childId: RequestId, reason: string): void {
    this.#child
      ?.send({
        jsonrpc: '2.0',
        id: childId,
        error: { code: ErrorCode.InternalError, message: `mcpwire bridge: ${reason}` },
      })
      .catch(() => {});
  }

  /** A session ended (DELETE, idle, closed): its calls are cancelled on the child; the last one stops it. */
  async #endSession(front: Channel): Promise<void> {
    if (!this.#sessions.has(front)) return;
    // At once, before anything another session sends next reaches the child.
    const { cancelOnChild, childRequestsToFail } = this.#ids.endSession(front, 'the client session ended');
    for (const cancel of cancelOnChild) this.#child?.send(cancel).catch(() => {});
    for (const id of childRequestsToFail) this.#refuse(id, 'the client session that was asked ended');
    await this.#forget(front);
    if (this.#sessions.size === 0) await this.close();
  }

  async #forget(front: Channel): Promise<void> {
    this.#sessions.delete(front);
    const sessionId = front.info?.sessionId;
    if (sessionId !== undefined) await this.#options.forgetSession(sessionId);
    await front.close();
  }

  /** The child exited (or closed its output): every session's calls fail with the reason, every session ends. */
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
    this.#options.onNote(`the shared server process ${how}; its ${this.#sessions.size} session(s) are over`);
    await this.#failAll(`mcpwire bridge: the server process ${how}; initialize again for a new one`, status);
  }

  /** Answers every request in flight (and every initialize waiting) with an error, then ends everything. */
  async #failAll(message: string, data: Record<string, unknown>): Promise<void> {
    const error = { code: ErrorCode.InternalError, message, data };
    const waiting = [
      ...this.#ids.drain().map(({ session, id }) => ({ front: session, id })),
      ...(this.#initializeWaiters ?? []),
    ];
    this.#initializeWaiters = undefined;
    await Promise.all(
      waiting.map(({ front, id }) => front.send({ jsonrpc: '2.0', id, error }).catch(() => {})),
    );
    await this.close();
  }
}

function messagesOf(item: Exclude<Frame, { type: 'batch' }>): Message[] {
  return item.type === 'message' ? [item.message] : [];
}
