// A requestor's page of tasks in Redis (`tasks/list`, TASK-16/19): the ids of its index in creation
// order, each read through the store (so a dead worker's task is settled first), ids of deleted
// tasks dropped from the index on the way.

import type { TaskPage, TaskRecord } from 'mcpwire/extensions/tasks';
import type { RedisConnection } from './redis-connection.ts';
import { orUnavailable } from './unavailable.ts';

/** What `list` is asked: the requestor, where to go on from, how many. */
export interface ListOptions {
  owner: string | undefined;
  session?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

/**
 * One page of the requestor's `index` (a sorted set of task ids): records with the given owner and
 * session, after `cursor` (the last id of the previous page); undefined for a cursor not in it.
 */
export async function listPage(
  redis: RedisConnection,
  index: string,
  options: ListOptions,
  get: (taskId: string) => Promise<TaskRecord | undefined>,
): Promise<TaskPage | undefined> {
  const ids = (await orUnavailable('task store', () =>
    redis.sendCommand(['ZRANGE', index, '0', '-1']),
  )) as string[];
  let start = 0;
  if (options.cursor !== undefined) {
    start = ids.indexOf(options.cursor) + 1;
    if (start === 0) return undefined;
  }
  const records: TaskRecord[] = [];
  let at = start;
  for (; at < ids.length && records.length < options.limit; at++) {
    const record = await get(ids[at]!);
    if (record === undefined) {
      await redis.sendCommand(['ZREM', index, ids[at]!]).catch(() => {});
      continue;
    }
    if (record.owner === options.owner && record.session === options.session) records.push(record);
  }
  const last = records.at(-1);
  return at < ids.length && last ? { records, nextCursor: last.taskId } : { records };
}

/** The index a record is listed under: its principal, else its session; none for neither. */
export function requestorOf(record: {
  owner?: string | undefined;
  session?: string | undefined;
}): string | undefined {
  if (record.owner !== undefined) return `principal:${record.owner}`;
  return record.session === undefined ? undefined : `session:${record.session}`;
}
