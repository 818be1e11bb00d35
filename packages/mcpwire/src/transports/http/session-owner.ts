// What a handshake-era HTTP session is given by the handler that holds it: its owner (the session
// registry, sessions.ts), which it tells about closes and changes and asks to reach other handlers,
// and the settings every session of that handler shares.

import type { Message } from '../../jsonrpc/message.ts';
import type { SessionRecord } from '../../protocol/session-record.ts';
import type { SessionStore } from './session-store.ts';
import type { SessionStreamSettings } from './session-streams.ts';

/**
 * Told when a session closes (the registry that holds it), and what the session routes elsewhere.
 * `Session` is the session it holds (HttpSession; a parameter, so this file needs no import of it).
 */
export interface SessionOwner<Session> {
  forget(session: Session): void;
  /** Traffic touched the session (its POST was answered): its idle time starts again. */
  touch(session: Session): void;
  /**
   * A client's response or cancellation this handler has nothing waiting for: another handler
   * serving the session may (the message bus carries it there). Rejects when the bus cannot take it.
   */
  forward(session: Session, message: Message): Promise<void>;
  /** The session's record changed here (other handlers' live copies take it); settles once published. */
  changed(record: SessionRecord): Promise<void>;
  /** This handler's tag in stream ids: a stream is continued where it is held. */
  readonly node: string;
  /**
   * Continues a stream of this session held by another handler (the bus carries it): a body, or
   * undefined when no handler holds it live (the caller replays from the event store).
   */
  relay(
    session: Session,
    streamId: string,
    lastEventId: string,
  ): Promise<ReadableStream<Uint8Array> | undefined>;
}

/** How sessions behave; shared by every session of one handler (and its streams). */
export interface HttpSessionSettings extends SessionStreamSettings {
  /** Where the sessions' records are kept. */
  sessions: SessionStore;
  retryMs: number;
  closeSseStreamsAfterMs: number | undefined;
  /** A POST not answered this long after it goes on SSE if the client accepts it; 0: at once. */
  sseAfterMs: number | undefined;
}
