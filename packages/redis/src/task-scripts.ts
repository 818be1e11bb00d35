// The Lua scripts of RedisTaskStore: each write is one script over the keys of one task (its hash
// and its lease share the `{task:<id>}` hash tag), so Redis runs the check and the write atomically.
// The store publishes each change on the bus after its script wrote it: a script cannot publish on a
// Redis Cluster's sharded bus, whose channel lives in another slot than the task's keys.

/**
 * KEYS: task hash, lease. ARGV: record JSON, status, expire-at ms ('' for none), lease ms, holder.
 * Creates the task (rev 1) unless it exists and takes the lease for a task that is not terminal.
 * Replies 1, or 0 when the id is taken.
 */
export const CREATE_TASK = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'record', ARGV[1], 'rev', 1, 'status', ARGV[2])
if ARGV[3] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[3]) end
local status = ARGV[2]
if status ~= 'completed' and status ~= 'failed' and status ~= 'cancelled' then
  redis.call('SET', KEYS[2], ARGV[5], 'PX', ARGV[4])
end
return 1
`;

/**
 * KEYS: task hash, lease. ARGV: expected rev, expected status, record JSON, new status, '1' when the
 * lease must be gone (a dead worker's task failed or claimed by another node), and for a claim the
 * new holder and lease ms ('' and '' otherwise).
 * The fence: the write happens only if the task is still at the revision and status it was read at
 * and that status is not terminal, so of two nodes finishing one task only the first writes, and of
 * two nodes claiming a dead worker's task for a re-run only the first takes its lease.
 * Replies 1 (written), 0 (changed since: read again), -1 (gone), -2 (terminal, or the lease is held).
 * A terminal write drops the lease.
 */
export const UPDATE_TASK = `
local fields = redis.call('HMGET', KEYS[1], 'rev', 'status')
if not fields[1] then return -1 end
if fields[1] ~= ARGV[1] or fields[2] ~= ARGV[2] then return 0 end
local from = fields[2]
if from == 'completed' or from == 'failed' or from == 'cancelled' then return -2 end
if ARGV[5] == '1' and redis.call('EXISTS', KEYS[2]) == 1 then return -2 end
redis.call('HSET', KEYS[1], 'record', ARGV[3], 'rev', tonumber(fields[1]) + 1, 'status', ARGV[4])
local to = ARGV[4]
if to == 'completed' or to == 'failed' or to == 'cancelled' then redis.call('DEL', KEYS[2])
elseif ARGV[6] ~= nil and ARGV[6] ~= '' then redis.call('SET', KEYS[2], ARGV[6], 'PX', ARGV[7]) end
return 1
`;

/** KEYS: task hash, lease. Replies { record JSON | false, rev, status, 1 when the lease is held }. */
export const READ_TASK = `
local fields = redis.call('HMGET', KEYS[1], 'record', 'rev', 'status')
return { fields[1], fields[2], fields[3], redis.call('EXISTS', KEYS[2]) }
`;

/** KEYS: lease. ARGV: holder, lease ms. Extends the lease if this holder still has it; replies 1 or 0. */
export const RENEW_LEASE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** KEYS: task hash, lease. Deletes the task; replies 1 if it existed. */
export const DELETE_TASK = `
local existed = redis.call('DEL', KEYS[1])
redis.call('DEL', KEYS[2])
return existed
`;

/**
 * Lua that adds the id ARGV[id] with the score ARGV[score] to the sorted set KEYS[1] and keeps the set
 * alive as long as its longest-lived task: ARGV[expireAt] ms, '' for a task without expiry (then none).
 */
function addKeepingAlive(score: number, id: number, expireAt: number): string {
  return `
local existed = redis.call('EXISTS', KEYS[1])
redis.call('ZADD', KEYS[1], ARGV[${score}], ARGV[${id}])
if ARGV[${expireAt}] == '' then
  redis.call('PERSIST', KEYS[1])
elseif existed == 0 then
  redis.call('PEXPIREAT', KEYS[1], ARGV[${expireAt}])
else
  -- GT leaves a key without expiry (a task without ttl is in it) as it is.
  redis.call('PEXPIREAT', KEYS[1], ARGV[${expireAt}], 'GT')
end
return 1
`;
}

/**
 * KEYS: a requestor's index. ARGV: created-at score, task id, expire-at ms ('' for none). Adds the id
 * and keeps the index alive as long as its longest-lived task (none: no expiry).
 */
export const INDEX_TASK = addKeepingAlive(1, 2, 3);

/**
 * KEYS: a requestor's active set. ARGV: limit, task id, created-at score, expire-at ms ('' for none).
 * Adds the id only if the set holds fewer than `limit` ids (the check and the add are one step, so
 * two nodes cannot both take the last place) and keeps the set alive as long as its longest-lived
 * task. Replies 1 (added), 0 (at the limit).
 */
export const RESERVE_TASK = `
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
${addKeepingAlive(3, 2, 4)}`;
