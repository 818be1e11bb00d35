// A lock shared by the processes of one machine: a file created with O_EXCL ('wx') beside the thing it
// guards, holding the holder's pid, start time and a random nonce. Waiters retry with backoff (timers,
// no busy loop) for a bounded time; a lock whose holder is dead, or that is older than `staleAfterMs`,
// is taken over. Used by the file token store so concurrent CLI processes run one OAuth flow at a time.

import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long to wait for a lock, and when a held one counts as abandoned. */
export interface FileLockOptions {
  /** Give up after this long (milliseconds), with an error naming the lock file. */
  waitMs: number;
  /** A lock older than this (milliseconds) is taken over even if its holder still runs. */
  staleAfterMs: number;
  /** Told once, when the lock is found held by another holder, before waiting. */
  onWait?: (holder: LockHolder) => void;
}

/** What a lock file says about its holder. */
export interface LockHolder {
  pid: number;
  /** Milliseconds since the epoch. */
  since: number;
  nonce: string;
}

const FIRST_BACKOFF_MS = 20;
const MAX_BACKOFF_MS = 500;

/**
 * Runs `run` while holding the lock file `lockPath` (created 0600, its folder 0700), and removes the
 * file after. Rejects, naming the file and its holder, when the lock stays held past `waitMs`.
 */
export async function withFileLock<T>(
  lockPath: string,
  options: FileLockOptions,
  run: () => Promise<T>,
): Promise<T> {
  const nonce = await acquire(lockPath, options);
  try {
    return await run();
  } finally {
    await release(lockPath, nonce);
  }
}

async function acquire(lockPath: string, options: FileLockOptions): Promise<string> {
  await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + options.waitMs;
  let backoff = FIRST_BACKOFF_MS;
  let isToldWaiting = false;
  for (;;) {
    const nonce = await tryCreate(lockPath);
    if (nonce !== undefined) return nonce;
    const holder = await readHolder(lockPath);
    if (holder === 'gone') continue;
    if (isStale(holder, options.staleAfterMs)) {
      await takeOver(lockPath, holder);
      continue;
    }
    if (Date.now() >= deadline)
      throw new Error(
        `${lockPath} is still held by ${describe(holder)} after ${Math.round(options.waitMs / 1000)} s; ` +
          'wait for that process to finish, or remove the file if no such process runs',
      );
    if (!isToldWaiting && 'pid' in holder) {
      options.onWait?.(holder);
      isToldWaiting = true;
    }
    await sleep(Math.min(backoff, Math.max(1, deadline - Date.now())));
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  }
}

/** Creates the lock file with this process as holder; undefined when it exists already. */
async function tryCreate(lockPath: string): Promise<string | undefined> {
  const nonce = randomBytes(9).toString('base64url');
  let handle;
  try {
    handle = await open(lockPath, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  try {
    const holder: LockHolder = { pid: process.pid, since: Date.now(), nonce };
    await handle.writeFile(`${JSON.stringify(holder)}\n`, 'utf8');
  } finally {
    await handle.close();
  }
  return nonce;
}

/** A lock file without a holder in it: being written, or left so by a process that died writing it. */
interface Unreadable {
  modifiedAt: number;
}

/** The holder the lock file names; 'gone' when it vanished meanwhile. */
async function readHolder(lockPath: string): Promise<LockHolder | Unreadable | 'gone'> {
  let text: string;
  let modified: number;
  try {
    text = await readFile(lockPath, 'utf8');
    modified = (await stat(lockPath)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder> | null;
    if (typeof value?.pid === 'number' && typeof value.since === 'number' && typeof value.nonce === 'string')
      return { pid: value.pid, since: value.since, nonce: value.nonce };
  } catch {
    // Written by a process that has not finished writing it, or not ours: judged by its age.
  }
  return { modifiedAt: modified };
}

function isStale(holder: LockHolder | Unreadable, staleAfterMs: number): boolean {
  // Writing a holder takes microseconds: one still missing after seconds never comes.
  if (!('pid' in holder)) return Date.now() - holder.modifiedAt > UNWRITTEN_STALE_MS;
  return !isRunning(holder.pid) || Date.now() - holder.since > staleAfterMs;
}

/** Whether a process with `pid` runs (EPERM: it does, as another user). */
function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes a stale lock, if the file still names the same holder. Takers-over are serialized by a
 * second lock file, so two waiters that judged one holder stale never remove each other's new lock; a
 * takeover file left by a process that died taking over is removed once older than a few seconds.
 */
async function takeOver(lockPath: string, stale: LockHolder | Unreadable): Promise<void> {
  const guardPath = `${lockPath}.takeover`;
  const guard = await tryCreate(guardPath);
  if (guard === undefined) {
    const since = await modifiedAt(guardPath);
    if (since !== undefined && Date.now() - since > TAKEOVER_GUARD_STALE_MS) await release(guardPath);
    await sleep(FIRST_BACKOFF_MS);
    return;
  }
  try {
    const holder = await readHolder(lockPath);
    if (holder !== 'gone' && isSameHolder(holder, stale)) await unlink(lockPath).catch(ignoreGone);
  } finally {
    await release(guardPath, guard);
  }
}

const TAKEOVER_GUARD_STALE_MS = 5_000;
const UNWRITTEN_STALE_MS = 5_000;

function isSameHolder(a: LockHolder | Unreadable, b: LockHolder | Unreadable): boolean {
  if ('pid' in a) return 'pid' in b && a.nonce === b.nonce;
  return !('pid' in b) && a.modifiedAt === b.modifiedAt;
}

/** Removes the lock file if it is still `nonce`'s (a holder taken over must not remove its successor's). */
async function release(lockPath: string, nonce?: string): Promise<void> {
  if (nonce !== undefined) {
    const holder = await readHolder(lockPath);
    if (holder === 'gone' || !('pid' in holder) || holder.nonce !== nonce) return;
  }
  await unlink(lockPath).catch(ignoreGone);
}

async function modifiedAt(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mtimeMs;
  } catch (error) {
    ignoreGone(error);
    return undefined;
  }
}

function ignoreGone(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}

function describe(holder: LockHolder | Unreadable): string {
  if (!('pid' in holder)) return 'a process that has not written its pid';
  return `process ${holder.pid} (since ${new Date(holder.since).toISOString()})`;
}
