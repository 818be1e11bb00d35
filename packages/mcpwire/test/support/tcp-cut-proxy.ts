// A TCP proxy on 127.0.0.1 for the HTTP client's fault tests: forwards bytes both ways and cuts a
// connection (destroys both sockets) at an exact offset found by text, as a network failure would.

import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** One planned cut: the first connection whose bytes one way contain `after` is cut there. */
export interface CutRule {
  /** `request`: the client's bytes; `response`: the server's. */
  direction: 'request' | 'response';
  /** Text (latin1) that locates the cut. */
  after: string;
  /** Bytes forwarded past the first byte of `after` before the cut (0: just before it). */
  offset: number;
  /** How many connections this rule cuts; default 1. */
  times?: number;
}

/** A listening proxy in front of one port. */
export interface TcpCutProxy {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** How many times each rule has cut, by its index. */
  readonly cuts: number[];
  /** Connections accepted so far. */
  readonly connections: () => number;
  [Symbol.asyncDispose](): Promise<void>;
}

interface Way {
  direction: CutRule['direction'];
  text: string;
  /** Absolute offset at which an armed rule cuts, and the rule's index. */
  armed?: { at: number; rule: number };
}

/** Starts a proxy to `upstreamPort`; the rules apply in order, each to its first `times` matches. */
export async function startTcpCutProxy(
  upstreamPort: number,
  rules: readonly CutRule[],
): Promise<TcpCutProxy> {
  const cuts = rules.map(() => 0);
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((client) => {
    connections++;
    const upstream = createConnection({ port: upstreamPort, host: '127.0.0.1' });
    sockets.add(client).add(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    const forward = (way: Way, to: Socket) => (chunk: Buffer) => {
      const before = way.text.length;
      way.text += chunk.toString('latin1');
      if (way.armed === undefined) {
        const armed = arm(way, rules, cuts);
        if (armed !== undefined) way.armed = armed;
      }
      const at = way.armed?.at;
      if (at === undefined || at > way.text.length) return void to.write(chunk);
      cuts[way.armed!.rule]!++;
      const part = chunk.subarray(0, Math.max(0, at - before));
      if (part.length === 0) end();
      else to.write(part, end);
    };
    client.on('data', forward({ direction: 'request', text: '' }, upstream));
    upstream.on('data', forward({ direction: 'response', text: '' }, client));
    for (const socket of [client, upstream]) socket.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    cuts,
    connections: () => connections,
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The first rule with cuts left whose text has appeared on `way`, with its absolute cut offset. */
function arm(way: Way, rules: readonly CutRule[], cuts: readonly number[]): Way['armed'] {
  for (const [index, rule] of rules.entries()) {
    if (rule.direction !== way.direction || cuts[index]! >= (rule.times ?? 1)) continue;
    const found = way.text.indexOf(rule.after);
    if (found >= 0) return { at: found + rule.offset, rule: index };
  }
  return undefined;
}
