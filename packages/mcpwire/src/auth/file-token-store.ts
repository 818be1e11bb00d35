// A TokenStore in one JSON file (AUTH-29: tokens stored securely): readable and writable by its owner
// only (mode 0600, in a directory created 0700), replaced atomically so a crash never leaves half a file.
// The one file of auth/ that needs Node (`mcpwire/auth/node`); everything else speaks web standards.

import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { withFileLock, type LockHolder } from './file-lock.ts';
import type { IssuerRecord, TokenStore } from './token-store.ts';

/** How the store's `exclusive` waits for another process's OAuth flow. */
export interface FileTokenStoreOptions {
  /**
   * How long to wait for another process's flow (milliseconds) before failing with an error naming the
   * lock file; default 390,000 (a 300 s browser step and more).
   */
  lockWaitMs?: number;
  /** A lock held longer than this (milliseconds) is taken over; default 360,000. */
  lockStaleAfterMs?: number;
  /** Told once per flow when another process holds the lock and this one waits. */
  onLockWait?: (holder: LockHolder, lockPath: string) => void;
}

/** The file's content: one record per issuer. */
interface StoreFile {
  version: 1;
  issuers: Record<string, IssuerRecord>;
}

/**
 * A TokenStore kept in the file at `path` (created on the first `set`). Each `set` or `delete` reads
 * the file, changes one issuer's record and writes a new file beside it (mode 0600, flushed), then
 * renames it over `path`, so a reader never sees half a file. Within one process, writes are
 * serialized; across processes, `exclusive` holds the lock file `<path>.lock` (see file-lock.ts) for
 * the OAuth client's whole flow, so concurrent processes register and log in once. `get` of a missing
 * file resolves undefined; a file that is not a store rejects, naming the path.
 */
export function createFileTokenStore(path: string, options: FileTokenStoreOptions = {}): TokenStore {
  const lockPath = `${path}.lock`;
  const { onLockWait } = options;
  const lock = {
    waitMs: options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS,
    staleAfterMs: options.lockStaleAfterMs ?? DEFAULT_LOCK_STALE_MS,
    ...(onLockWait === undefined ? {} : { onWait: (holder: LockHolder) => onLockWait(holder, lockPath) }),
  };
  let queue: Promise<unknown> = Promise.resolve();
  const change = (edit: (issuers: Record<string, IssuerRecord>) => void): Promise<void> => {
    const run = queue.then(async () => {
      const file = await readStore(path);
      edit(file.issuers);
      await writeAtomically(path, `${JSON.stringify(file, null, 2)}\n`);
    });
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    get: async (issuer) => {
      await queue;
      return (await readStore(path)).issuers[issuer];
    },
    set: (issuer, record) =>
      change((issuers) => {
        issuers[issuer] = structuredClone(record);
      }),
    delete: (issuer) =>
      change((issuers) => {
        delete issuers[issuer];
      }),
    exclusive: (flow) => withFileLock(lockPath, lock, flow),
  };
}

const DEFAULT_LOCK_WAIT_MS = 390_000;
const DEFAULT_LOCK_STALE_MS = 360_000;

async function readStore(path: string): Promise<StoreFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, issuers: {} };
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`token store ${path} is not JSON; move it away to start with an empty store`);
  }
  const issuers = (value as Partial<StoreFile> | null)?.issuers;
  if ((value as Partial<StoreFile> | null)?.version !== 1 || typeof issuers !== 'object' || issuers === null)
    throw new Error(
      `token store ${path} is not a mcpwire token store (expected {"version":1,"issuers":{...}})`,
    );
  return { version: 1, issuers };
}

/** Writes `text` to a new owner-only file beside `path`, flushes it, and renames it over `path`. */
async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
