// The request headers the Node adapter hands the handler: the handful every MCP request reads are
// taken from node:http's raw name/value list in one pass. node:http builds its `headers` object
// lazily, one megamorphic store and one lowercased name string per header; an MCP request never
// needs it unless something asks for another header (issue 23, point 4).

import type { IncomingMessage } from 'node:http';
import type { HeaderReader } from './exchange.ts';

/** The headers read by name on every MCP request, lowercase; their index is their slot. */
const READ_ONCE = [
  'mcp-session-id',
  'mcp-protocol-version',
  'content-type',
  'accept',
  'origin',
  'host',
  'content-length',
  'mcp-method',
  'mcp-name',
] as const;

/**
 * Node keeps the first of these when repeated unless the server joins duplicates
 * (`joinDuplicateHeaders`); every other repeated header is joined with ", ".
 */
const FIRST_WINS = new Set<string>(['content-type', 'host', 'content-length']);

/**
 * Case-insensitive lookup on one node:http request's headers, with the values Node's own `headers`
 * object would give (repeats joined or dropped as Node does). The MCP headers come from the raw list;
 * any other name falls back to `headers`, which Node then builds.
 */
export class NodeHeaders implements HeaderReader {
  readonly #incoming: IncomingMessage;
  /** READ_ONCE's values by slot; null when absent. */
  readonly #values: (string | null)[] = [null, null, null, null, null, null, null, null, null];

  constructor(incoming: IncomingMessage) {
    this.#incoming = incoming;
    const raw = incoming.rawHeaders;
    const values = this.#values;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const slot = slotOf(raw[i]!);
      if (slot === -1) continue;
      const value = raw[i + 1]!;
      const held = values[slot];
      if (held === null) values[slot] = value;
      else if (joinsDuplicates(incoming) || !FIRST_WINS.has(READ_ONCE[slot]!))
        values[slot] = `${held}, ${value}`;
    }
  }

  get(name: string): string | null {
    const slot = slotOf(name);
    if (slot !== -1) return this.#values[slot]!;
    const value: unknown = this.#incoming.headers[name.toLowerCase()];
    if (typeof value === 'string') return value;
    // Only set-cookie is kept as an array; anything else (an inherited name) is no header.
    return Array.isArray(value) ? value.join(', ') : null;
  }
}

/** `name`'s slot in READ_ONCE (any case), or -1. The length decides first: most names fail there. */
function slotOf(name: string): number {
  switch (name.length) {
    case 14:
      return is(name, 'mcp-session-id') ? 0 : is(name, 'content-length') ? 6 : -1;
    case 20:
      return is(name, 'mcp-protocol-version') ? 1 : -1;
    case 12:
      return is(name, 'content-type') ? 2 : -1;
    case 6:
      return is(name, 'accept') ? 3 : is(name, 'origin') ? 4 : -1;
    case 4:
      return is(name, 'host') ? 5 : -1;
    case 10:
      return is(name, 'mcp-method') ? 7 : -1;
    case 8:
      return is(name, 'mcp-name') ? 8 : -1;
    default:
      return -1;
  }
}

/** Whether `name` is `lowercase` in any case; lowercase names (what clients send) compare directly. */
function is(name: string, lowercase: string): boolean {
  return name === lowercase || name.toLowerCase() === lowercase;
}

/** Node copies its server's `joinDuplicateHeaders` option onto each request (not in its types). */
function joinsDuplicates(incoming: IncomingMessage): boolean {
  return (incoming as { joinDuplicateHeaders?: boolean }).joinDuplicateHeaders === true;
}
