// The bus's replay log (issue 24): pub/sub delivers at most once, so a message published while a
// node's subscription is away (its connection reconnecting, or a Redis Cluster shard's subscriptions
// moving to a promoted master) never reaches it over pub/sub. The publish script appends every message
// to a short Redis Stream per topic and publishes it with the entry's id and the id of the entry before
// it, in one step. A subscriber remembers the newest id it delivered per topic: a message naming a
// previous entry it has not delivered shows a gap, which it fills from the log first; what was lost
// with nothing after it, a periodic read of the log finds.

/**
 * KEYS[1]: the topic's log (a Stream in the channel's slot). ARGV: the channel, the message (JSON),
 * how many entries the log keeps (about), and `PUBLISH` or `SPUBLISH`. Appends the message, publishes
 * `<entry id> <previous entry id> <message>` (`0-0` when the log was empty), and replies the entry id.
 * One script, so the log's order is the channel's order: a subscriber can drop any entry at or below
 * the newest id it delivered, and knows it missed one when the previous id is above it.
 */
export const PUBLISH_LOGGED = `
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
local previous = last and last[1] or '0-0'
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'm', ARGV[2])
redis.call(ARGV[4], ARGV[1], id .. ' ' .. previous .. ' ' .. ARGV[2])
return id
`;

/** A log entry as `XRANGE` gives it: its id and its message's JSON. */
export interface LogEntry {
  readonly id: string;
  readonly json: string;
}

/** A message as it crossed the channel: its log entry, and the id of the entry before it. */
export interface LoggedMessage extends LogEntry {
  readonly previous: string;
}

/** Splits `<entry id> <previous entry id> <JSON>` (what PUBLISH_LOGGED publishes); undefined for anything else. */
export function readLogged(text: string): LoggedMessage | undefined {
  const first = text.indexOf(' ');
  const second = text.indexOf(' ', first + 1);
  if (first <= 0 || second <= first + 1) return undefined;
  const id = text.slice(0, first);
  const previous = text.slice(first + 1, second);
  if (!isEntryId(id) || !isEntryId(previous)) return undefined;
  return { id, previous, json: text.slice(second + 1) };
}

/** The entries of an `XRANGE` reply (`[[id, ['m', json]], ...]`), in order; malformed ones skipped. */
export function readRange(reply: unknown): LogEntry[] {
  if (!Array.isArray(reply)) return [];
  const entries: LogEntry[] = [];
  for (const entry of reply as unknown[]) {
    if (!Array.isArray(entry)) continue;
    const [id, fields] = entry as [unknown, unknown];
    if (typeof id !== 'string' || !Array.isArray(fields)) continue;
    const at = (fields as unknown[]).indexOf('m');
    const json = at >= 0 && at % 2 === 0 ? (fields as unknown[])[at + 1] : undefined;
    if (typeof json === 'string') entries.push({ id, json });
  }
  return entries;
}

const ENTRY_ID = /^\d+-\d+$/;

function isEntryId(text: string): boolean {
  return ENTRY_ID.test(text);
}

/** Whether Stream entry id `a` comes after `b` (`<ms>-<seq>`, compared as numbers). */
export function isAfter(a: string, b: string): boolean {
  const dashA = a.indexOf('-');
  const dashB = b.indexOf('-');
  const msA = Number(a.slice(0, dashA));
  const msB = Number(b.slice(0, dashB));
  if (msA !== msB) return msA > msB;
  return Number(a.slice(dashA + 1)) > Number(b.slice(dashB + 1));
}
