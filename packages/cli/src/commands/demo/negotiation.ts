// Step 1 of the story, on a short-lived connection of its own and in raw JSON-RPC (no Client): the
// protocol version is settled in one round trip. Handshake era (LIFE-7/8): a non-date version gets
// -32602 with `supported`/`requested`; a date the server lacks gets the server's own, which the host
// accepts. 2026-07-28 (S26-VER-2/3): an unknown version gets -32022, and the host retries at a mutual one.

import {
  ErrorCode,
  HANDSHAKE_VERSIONS,
  MetaKey,
  StatelessErrorCode,
  type Channel,
  type JsonObject,
  type Message,
} from 'mcpwire';
import type { DemoPrinter } from '../../terminal/demo-printer.ts';
import type { Checks } from './checks.ts';
import type { DemoServer } from './connections.ts';

/** A later handshake revision the server does not have (hypothetical: no such revision exists). */
const LATER_HANDSHAKE_VERSION = '2026-01-26';

/** A later stateless revision the server does not have (hypothetical). */
const LATER_STATELESS_VERSION = '2027-01-26';

/** The first answer also waits for the server to start (a child process under tsx takes seconds). */
const ANSWER_TIMEOUT_MS = 30_000;

/** What the step needs. */
export interface NegotiationContext {
  printer: DemoPrinter;
  checks: Checks;
  server: DemoServer;
}

type Response = {
  id: number;
  result?: JsonObject;
  error?: { code: number; message: string; data?: JsonObject };
};

/** Runs the raw exchange of `era` on a new connection, then closes it. */
export async function showVersionNegotiation(
  era: 'handshake' | 'stateless',
  context: NegotiationContext,
): Promise<void> {
  const { printer } = context;
  printer.heading('1. Version negotiation, in raw JSON-RPC on a short-lived connection');
  const raw = await RawConnection.open(context.server);
  try {
    if (era === 'handshake') await negotiateHandshake(raw, context);
    else await negotiateStateless(raw, context);
  } finally {
    await raw.close();
    printer.note('the short-lived connection is closed; the host now connects with the library Client');
  }
}

async function negotiateHandshake(
  raw: RawConnection,
  { printer, checks }: NegotiationContext,
): Promise<void> {
  const clientInfo = { name: 'demo-raw-host', version: '0.0.1' };
  printer.note('a host that sends a semantic version ("1.0") where a revision date belongs:');
  const refused = await raw.request('initialize', { protocolVersion: '1.0', capabilities: {}, clientInfo });
  const data = refused.error?.data as { supported?: unknown; requested?: unknown } | undefined;
  checks.expect(
    refused.error?.code === ErrorCode.InvalidParams &&
      refused.error.message === 'Unsupported protocol version' &&
      Array.isArray(data?.supported) &&
      data.requested === '1.0',
    '-32602 "Unsupported protocol version" with data.supported (the server\'s revisions) and data.requested',
  );
  printer.note(
    `a host built for a later revision asks for ${LATER_HANDSHAKE_VERSION}, which the server does not have:`,
  );
  const answered = await raw.request('initialize', {
    protocolVersion: LATER_HANDSHAKE_VERSION,
    capabilities: {},
    clientInfo,
  });
  const version = answered.result?.protocolVersion;
  checks.expect(
    version === HANDSHAKE_VERSIONS[0],
    `the server answers its own latest revision (${String(version)}) instead of ${LATER_HANDSHAKE_VERSION} (LIFE-8)`,
  );
  printer.note(
    `the host also speaks ${String(version)}, so it accepts: one round trip settled the version (LIFE-7)`,
  );
  raw.notify('notifications/initialized');
}

async function negotiateStateless(
  raw: RawConnection,
  { printer, checks }: NegotiationContext,
): Promise<void> {
  const envelope = (version: string): JsonObject => ({
    _meta: {
      [MetaKey.protocolVersion]: version,
      [MetaKey.clientCapabilities]: {},
      [MetaKey.clientInfo]: { name: 'demo-raw-host', version: '0.0.1' },
    },
  });
  printer.note(`a host built for a later revision names ${LATER_STATELESS_VERSION} in the request's _meta:`);
  const refused = await raw.request('server/discover', envelope(LATER_STATELESS_VERSION));
  const data = refused.error?.data as { supported?: unknown; requested?: unknown } | undefined;
  const supported = Array.isArray(data?.supported) ? (data.supported as string[]) : [];
  checks.expect(
    refused.error?.code === StatelessErrorCode.UnsupportedProtocolVersion &&
      supported.length > 0 &&
      data?.requested === LATER_STATELESS_VERSION,
    `-32022 "Unsupported protocol version" with data.supported and data.requested (2026-07-28's code; the handshake era uses -32602)`,
  );
  const mutual = supported[0] ?? '2026-07-28';
  printer.note(`the host also speaks ${mutual}, so it retries at it: one more round trip (S26-VER-3)`);
  const discovered = await raw.request('server/discover', envelope(mutual));
  const versions = discovered.result?.supportedVersions;
  checks.expect(
    Array.isArray(versions) && versions.includes(mutual),
    `server/discover succeeds at ${mutual} and lists the revisions it serves`,
  );
}

/** A channel driven by hand: numbered requests, each awaited by id. */
class RawConnection {
  readonly #waiters = new Map<number, (response: Response) => void>();
  readonly #channel: Channel;
  #nextId = 1;

  private constructor(channel: Channel) {
    this.#channel = channel;
    channel.open({
      handleFrame: (frame) => {
        if (frame.type !== 'message' || 'method' in frame.message || !('id' in frame.message)) return;
        this.#waiters.get(frame.message.id as number)?.(frame.message as unknown as Response);
      },
      handleClose: () => {},
    });
  }

  static async open(server: DemoServer): Promise<RawConnection> {
    return new RawConnection((await server.open()).channel);
  }

  async request(method: string, params: JsonObject): Promise<Response> {
    const id = this.#nextId++;
    const answered = new Promise<Response>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer to ${method} within ${ANSWER_TIMEOUT_MS} ms`)),
        ANSWER_TIMEOUT_MS,
      );
      this.#waiters.set(id, (response) => {
        clearTimeout(timer);
        resolve(response);
      });
    });
    await this.#channel.send({ jsonrpc: '2.0', id, method, params } as Message);
    return answered;
  }

  notify(method: string): void {
    void this.#channel.send({ jsonrpc: '2.0', method } as Message).catch(() => {});
  }

  close(): Promise<void> {
    return this.#channel.close();
  }
}
