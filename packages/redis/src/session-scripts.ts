// The Lua scripts of RedisSessionStore: each store method that reads and writes is one script, so
// Redis runs it atomically (a cap check and its insert, a revision check and its write).

/** Lua shared by the scripts: `drop(id)` removes a session's hash and its index entries. */
const DROP = `
local prefix = ARGV[1]
-- also: the sorted set the id was found in (an expired hash no longer names its client's set).
local function drop(id, all, also)
  local h = prefix .. ':{' .. id .. '}:session'
  local set = redis.call('HGET', h, '_clientSet')
  redis.call('DEL', h)
  redis.call('ZREM', all, id)
  if set then redis.call('ZREM', set, id) end
  if also then redis.call('ZREM', also, id) end
end
`;

/**
 * KEYS: hash, all sessions, [client's sessions]. ARGV: prefix, now, maxSessions, maxPerClient,
 * pinned judgements (JSON object id -> boolean), idle ms ('' for none), score, id, then field/value pairs.
 * Replies { 'ok' | 'ask' | 'refused', cap, ids to ask about, evicted ids }.
 */
export const CREATE = `${DROP}
local now = tonumber(ARGV[2])
local judged = cjson.decode(ARGV[5])
local evicted = {}
local function makeRoom(zkey, max)
  if redis.call('ZCARD', zkey) < max then return nil end
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', zkey, '-inf', now)) do drop(id, KEYS[2], zkey) end
  if redis.call('ZCARD', zkey) < max then return nil end
  local unknown = {}
  for _, id in ipairs(redis.call('ZRANGE', zkey, 0, -1)) do
    local pinned = judged[id]
    if redis.call('EXISTS', prefix .. ':{' .. id .. '}:session') == 0 then
      drop(id, KEYS[2], zkey)
      if redis.call('ZCARD', zkey) < max then return nil end
    elseif pinned == nil then
      table.insert(unknown, id)
      if #unknown >= 32 then break end
    elseif pinned == false then
      if #unknown > 0 then break end
      drop(id, KEYS[2])
      table.insert(evicted, id)
      return nil
    end
  end
  if #unknown > 0 then return {'ask', unknown} end
  return {'refused', {}}
end
if KEYS[3] then
  local r = makeRoom(KEYS[3], tonumber(ARGV[4]))
  if r then return {r[1], 'maxSessionsPerClient', r[2], evicted} end
end
local r = makeRoom(KEYS[2], tonumber(ARGV[3]))
if r then return {r[1], 'maxSessions', r[2], evicted} end
for i = 9, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('HSET', KEYS[1], '_idle', ARGV[6])
if ARGV[6] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[6]) end
redis.call('ZADD', KEYS[2], ARGV[7], ARGV[8])
if KEYS[3] then
  redis.call('HSET', KEYS[1], '_clientSet', KEYS[3])
  redis.call('ZADD', KEYS[3], ARGV[7], ARGV[8])
end
return {'ok', '', {}, evicted}
`;

/** KEYS: hash. ARGV: expected revision, then field/value pairs. Replies {1|0, [HGETALL]}. */
export const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {0} end
if redis.call('HGET', KEYS[1], 'revision') ~= ARGV[1] then return {0, redis.call('HGETALL', KEYS[1])} end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('HINCRBY', KEYS[1], 'revision', 1)
return {1, redis.call('HGETALL', KEYS[1])}
`;

/** KEYS: hash, all sessions. ARGV: prefix, id, at. Restarts the idle time; the score follows. */
export const TOUCH = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local at = tonumber(ARGV[3])
local idle = redis.call('HGET', KEYS[1], '_idle')
redis.call('HSET', KEYS[1], 'lastActiveAt', ARGV[3])
local score = at + 1e15
if idle and idle ~= '' then
  score = at + tonumber(idle)
  redis.call('PEXPIRE', KEYS[1], idle)
end
score = string.format('%.0f', score)
redis.call('ZADD', KEYS[2], 'XX', score, ARGV[2])
local set = redis.call('HGET', KEYS[1], '_clientSet')
if set then redis.call('ZADD', set, 'XX', score, ARGV[2]) end
return 1
`;

/** KEYS: hash, all sessions. ARGV: prefix, id. Replies 1 if there was a record. */
export const DELETE = `${DROP}
local existed = redis.call('EXISTS', KEYS[1])
drop(ARGV[2], KEYS[2])
return existed
`;

/** KEYS: a sessions sorted set, all sessions. ARGV: prefix, now. Drops the expired; replies the count. */
export const COUNT = `${DROP}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])) do drop(id, KEYS[2], KEYS[1]) end
return redis.call('ZCARD', KEYS[1])
`;
