// The soak's TCP fault proxy (node:net): forwards bytes between HTTP clients and the server and cuts
// chosen connections at random points: mid-request, before the response, or mid-response (mid-SSE).

import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ConnectionLog, logRequestBytes, logResponseBytes, type ConnectionRecord } from './soak-proxy-log.ts';

/** Where a connection is cut. */
export type CutKind = 'mid-request' | 'before-response' | 'mid-response';

/** What the proxy did, for the report. */
export interface ProxyCounters {
  connections: number;
  cuts: Record<CutKind, number>;
  /** Requests seen carrying `Last-Event-ID`: resumptions of a broken SSE stream. */
  resumptions: number;
}

/** Options of {@link startFaultProxy}. */
export interface FaultProxyOptions {
  /** The chance that a new connection gets a cut planned; default 0.35. */
  cutChance?: number;
  /** Random numbers in [0, 1); default Math.random (the soak passes a seeded one). */
  random?: () => number;
}

/** A listening proxy; `close` ends every connection. */
export interface FaultProxy {
  /** `host:port` to use in place of the server's. */
  readonly port: number;
  readonly counters: ProxyCounters;
  /** The latest connections, what they carried and where they were cut (for diagnostics). */
  readonly log: ConnectionLog;
  close(): Promise<void>;
}

interface CutPlan {
  kind: CutKind;
  /** Request bytes forwarded before a mid-request cut, or before which no cut is armed. */
  requestBytes: number;
  /** Response bytes forwarded before a mid-response cut. */
  responseBytes: number;
}

/** Log-uniform integer in [low, high]: cut points spread over small and large offsets alike. */
function logUniform(random: () => number, low: number, high: number): number {
  return Math.floor(Math.exp(Math.log(low) + random() * (Math.log(high) - Math.log(low))));
}

function planCut(random: () => number): CutPlan {
  const roll = random();
  const kind: CutKind = roll < 0.25 ? 'mid-request' : roll < 0.5 ? 'before-response' : 'mid-response';
  // Most connections carry one or two exchanges of a few KiB (an SSE response holds its own), so the
  // cut points stay within that: a larger one would rarely be reached.
  return {
    kind,
    requestBytes: logUniform(random, 20, 2_000),
    responseBytes: logUniform(random, 100, 4_000),
  };
}

const RESUMPTION = /\r\nlast-event-id:/i;

/** Starts a proxy on 127.0.0.1 (a free port) in front of `upstreamPort`. */
export async function startFaultProxy(
  upstreamPort: number,
  options: FaultProxyOptions = {},
): Promise<FaultProxy> {
  const random = options.random ?? Math.random;
  const cutChance = options.cutChance ?? 0.35;
  const counters: ProxyCounters = {
    connections: 0,
    cuts: { 'mid-request': 0, 'before-response': 0, 'mid-response': 0 },
    resumptions: 0,
  };
  const sockets = new Set<Socket>();
  const log = new ConnectionLog();
  const server: Server = createServer((client) => {
    counters.connections++;
    const plan = random() < cutChance ? planCut(random) : undefined;
    const upstream = createConnection({ port: upstreamPort, host: '127.0.0.1' });
    pipeWithFaults({ client, upstream, record: log.open() }, plan, counters, sockets);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    counters,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        log.clear();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function pipeWithFaults(
  { client, upstream, record }: { client: Socket; upstream: Socket; record: ConnectionRecord },
  plan: CutPlan | undefined,
  counters: ProxyCounters,
  sockets: Set<Socket>,
): void {
  sockets.add(client).add(upstream);
  let sent = 0;
  let received = 0;
  let isCut = false;
  // The bytes before the cut point are flushed first, so the cut lands where it was planned.
  const cut = (kind: CutKind, side?: Socket, part?: Buffer): void => {
    if (isCut) return;
    isCut = true;
    counters.cuts[kind]++;
    const forwarded = part?.length ?? 0;
    const isRequestSide = side === upstream;
    record.cut = {
      kind,
      requestBytes: sent + (isRequestSide ? forwarded : 0),
      responseBytes: received + (isRequestSide ? 0 : forwarded),
    };
    if (part && part.length > 0) (isRequestSide ? logRequestBytes : logResponseBytes)(record, part);
    record.timeline.push(
      `x cut ${kind} at request byte ${record.cut.requestBytes}, response byte ${record.cut.responseBytes}`,
    );
    const destroy = (): void => {
      client.destroy();
      upstream.destroy();
    };
    if (side && part && part.length > 0) side.write(part, destroy);
    else destroy();
  };
  client.on('data', (chunk: Buffer) => {
    if (isCut) return;
    if (RESUMPTION.test(chunk.toString('latin1'))) counters.resumptions++;
    if (plan?.kind === 'mid-request' && sent + chunk.length >= plan.requestBytes) {
      return cut('mid-request', upstream, chunk.subarray(0, Math.max(0, plan.requestBytes - sent)));
    }
    sent += chunk.length;
    logRequestBytes(record, chunk);
    upstream.write(chunk);
  });
  upstream.on('data', (chunk: Buffer) => {
    if (isCut) return;
    if (plan?.kind === 'before-response' && sent >= plan.requestBytes) return cut('before-response');
    if (plan?.kind === 'mid-response' && received + chunk.length >= plan.responseBytes) {
      return cut('mid-response', client, chunk.subarray(0, Math.max(0, plan.responseBytes - received)));
    }
    received += chunk.length;
    logResponseBytes(record, chunk);
    client.write(chunk);
  });
  const end = (): void => {
    record.closedAt ??= Date.now();
    client.destroy();
    upstream.destroy();
    sockets.delete(client);
    sockets.delete(upstream);
  };
  for (const socket of [client, upstream]) {
    socket.on('error', end);
    socket.on('close', end);
  }
}
