// The Lua scripts of RedisSessionStore. Each touches the keys of one slot only, so they run on a Redis
// Cluster: a session's hash (`{<id>}`) or the caps' index (`{sessions}`), never both in one script.

/** Index KEYS[1] is all sessions, KEYS[2] the meta hash. `forget(id)` removes an id from the index. */
const FORGET = `
local function forget(id)
  local meta = redis.call('HGET', KEYS[2], id)
  redis.call('ZREM', KEYS[1], id)
  if meta then
    local set = string.match(meta, '^[^|]*|(.*)$')
    if set and set ~= '' then redis.call('ZREM', set, id) end
    redis.call('HDEL', KEYS[2], id)
  end
end
`;

/**
 * The caps' check and reservation. KEYS: all sessions, meta, [client's sessions]. ARGV: now,
 * maxSessions, maxPerClient, pinned judgements (JSON object id -> boolean), score, id, meta value.
 * Replies { 'ok' | 'ask' | 'refused', cap, ids to ask about, evicted ids }; the evicted ids are
 * forgotten by the index, and their hashes are the caller's to delete.
 */
export const INDEX_CREATE = `${FORGET}
local now = tonumber(ARGV[1])
local judged = cjson.decode(ARGV[4])
local evicted = {}
local function makeRoom(zkey, max)
  if redis.call('ZCARD', zkey) < max then return nil end
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', zkey, '-inf', now)) do
    forget(id)
    redis.call('ZREM', zkey, id)
  end
  if redis.call('ZCARD', zkey) < max then return nil end
  local unknown = {}
  for _, id in ipairs(redis.call('ZRANGE', zkey, 0, -1)) do
    local pinned = judged[id]
    if pinned == nil then
      table.insert(unknown, id)
      if #unknown >= 32 then break end
    elseif pinned == false then
      if #unknown > 0 then break end
      forget(id)
      redis.call('ZREM', zkey, id)
      table.insert(evicted, id)
      return nil
    end
  end
  if #unknown > 0 then return {'ask', unknown} end
  return {'refused', {}}
end
if KEYS[3] then
  local r = makeRoom(KEYS[3], tonumber(ARGV[3]))
  if r then return {r[1], 'maxSessionsPerClient', r[2], evicted} end
end
local r = makeRoom(KEYS[1], tonumber(ARGV[2]))
if r then return {r[1], 'maxSessions', r[2], evicted} end
redis.call('ZADD', KEYS[1], ARGV[5], ARGV[6])
redis.call('HSET', KEYS[2], ARGV[6], ARGV[7])
if KEYS[3] then redis.call('ZADD', KEYS[3], ARGV[5], ARGV[6]) end
return {'ok', '', {}, evicted}
`;

/** KEYS: all sessions, meta. ARGV: id, at. Renews the id's scores; replies 0 when the index has no such id. */
export const INDEX_TOUCH = `
local meta = redis.call('HGET', KEYS[2], ARGV[1])
if not meta then return 0 end
local idle, set = string.match(meta, '^([^|]*)|(.*)$')
local score = tonumber(ARGV[2]) + 1e15
if idle ~= '' then score = tonumber(ARGV[2]) + tonumber(idle) end
score = string.format('%.0f', score)
redis.call('ZADD', KEYS[1], 'XX', score, ARGV[1])
if set ~= '' then redis.call('ZADD', set, 'XX', score, ARGV[1]) end
return 1
`;

/** KEYS: all sessions, meta. ARGV: id. Forgets the id. */
export const INDEX_FORGET = `${FORGET}
forget(ARGV[1])
return 1
`;

/** KEYS: all sessions, meta, the sorted set to count. ARGV: now. Forgets the expired; replies the count. */
export const INDEX_COUNT = `${FORGET}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])) do
  forget(id)
  redis.call('ZREM', KEYS[3], id)
end
return redis.call('ZCARD', KEYS[3])
`;

/** KEYS: hash. ARGV: idle ms ('' for none), then field/value pairs. Writes a new session's record. */
export const WRITE = `
redis.call('DEL', KEYS[1])
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('HSET', KEYS[1], '_idle', ARGV[1])
if ARGV[1] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 1
`;

/** KEYS: hash. ARGV: expected revision, then field/value pairs. Replies {1|0, [HGETALL]}. */
export const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {0} end
if redis.call('HGET', KEYS[1], 'revision') ~= ARGV[1] then return {0, redis.call('HGETALL', KEYS[1])} end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('HINCRBY', KEYS[1], 'revision', 1)
return {1, redis.call('HGETALL', KEYS[1])}
`;

/** KEYS: hash. ARGV: at. Restarts the idle time; replies 0 when there is no record. */
export const TOUCH = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'lastActiveAt', ARGV[1])
local idle = redis.call('HGET', KEYS[1], '_idle')
if idle and idle ~= '' then redis.call('PEXPIRE', KEYS[1], idle) end
return 1
`;
