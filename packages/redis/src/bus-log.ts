// The bus's replay log (issue 24, a lost answer after a Redis restart): pub/sub delivers at most once,
// so a message published while a node's subscriber connection is reconnecting never reaches it. The
// publish script appends every message to a short Redis Stream per topic and publishes it with the
// entry's id in one step; a subscriber remembers the newest id it delivered per topic and, once its
// connection is back, reads what it missed from the log.

/**
 * KEYS[1]: the topic's log (a Stream in the channel's slot). ARGV: the channel, the message (JSON),
 * how many entries the log keeps (about), and `PUBLISH` or `SPUBLISH`. Appends the message, publishes
 * `<entry id> <message>`, and replies the entry id. One script, so the log's order is the channel's
 * order: a subscriber can drop any entry at or below the newest id it delivered.
 */
export const PUBLISH_LOGGED = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'm', ARGV[2])
redis.call(ARGV[4], ARGV[1], id .. ' ' .. ARGV[2])
return id
`;

/** A published message as it crossed the channel: the log entry's id and the message's JSON. */
export interface LoggedMessage {
  readonly id: string;
  readonly json: string;
}

/** Splits `<entry id> <JSON>` (what PUBLISH_LOGGED publishes); undefined for anything else. */
export function readLogged(text: string): LoggedMessage | undefined {
  const space = text.indexOf(' ');
  if (space <= 0 || !isEntryId(text.slice(0, space))) return undefined;
  return { id: text.slice(0, space), json: text.slice(space + 1) };
}

/** The entries of an `XRANGE` reply (`[[id, ['m', json]], ...]`), in order; malformed ones skipped. */
export function readRange(reply: unknown): LoggedMessage[] {
  if (!Array.isArray(reply)) return [];
  const entries: LoggedMessage[] = [];
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
