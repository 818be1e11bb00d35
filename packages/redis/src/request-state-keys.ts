// The key ring that seals 2026-07-28 `requestState` (S26-MRTR-4), shared by every node on one Redis
// (issue 24): a round sealed by one node is opened by any other. One list under the prefix: the first
// key signs, every key verifies, so a key is rotated by pushing a new one to the front (and the old
// one removed from the end once no state it sealed can still be alive: its TTL, 10 minutes by default).

import type { RedisConnection } from './redis-connection.ts';
import { RedisKeys, type KeyOptions } from './keys.ts';

/** Creates the ring with one random key when it does not exist yet; answers its keys, first signing. */
const LOAD = `
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('RPUSH', KEYS[1], ARGV[1]) end
return redis.call('LRANGE', KEYS[1], 0, -1)
`;

/**
 * The shared keys for `server.setRequestStateKeys({ keys })`: read from Redis, or made (32 random
 * bytes, base64url) by the first node that asks, atomically, so every node gets the same ring.
 * Whoever can read this Redis can forge request states, as it can bind sessions: keep it where only
 * the server's nodes reach it.
 */
export async function loadRequestStateKeys(
  client: RedisConnection,
  options: KeyOptions = {},
): Promise<string[]> {
  const key = new RedisKeys(options).requestStateKeys;
  const fresh = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  const keys = (await client.eval(LOAD, { keys: [key], arguments: [fresh] })) as unknown;
  if (
    !Array.isArray(keys) ||
    keys.length === 0 ||
    !keys.every((value) => typeof value === 'string' && value.length >= 16)
  )
    throw new Error(
      `The requestState key ring at ${key} holds something else than keys of 16 characters or more`,
    );
  return keys as string[];
}
