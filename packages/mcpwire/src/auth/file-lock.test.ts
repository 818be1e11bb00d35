// The cross-process lock of the file token store on a real file system: mutual exclusion, a lock left
// by a dead process or an old one taken over, a lock file never written taken over once old, and a
// bounded wait that fails naming the lock file and its holder.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { withFileLock, type LockHolder } from './file-lock.ts';

async function temporaryDirectory(): Promise<AsyncDisposable & { path: string }> {
  const path = await mkdtemp(join(tmpdir(), 'mcpwire-file-lock-'));
  return { path, [Symbol.asyncDispose]: () => rm(path, { recursive: true, force: true }) };
}

const PATIENT = { waitMs: 120_000, staleAfterMs: 120_000 };

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

test('20 concurrent holders in one process run one at a time, and the lock file goes with the last', async () => {
  await using dir = await temporaryDirectory();
  const lockPath = join(dir.path, 'store', 'tokens.json.lock');
  let inside = 0;
  let most = 0;
  const ran: number[] = [];
  await Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      withFileLock(lockPath, PATIENT, async () => {
        inside++;
        most = Math.max(most, inside);
        await new Promise((resolve) => setImmediate(resolve));
        ran.push(index);
        inside--;
      }),
    ),
  );
  assert.deepEqual([most, ran.length], [1, 20]);
  assert.deepEqual(await readdir(join(dir.path, 'store')), []);
  assert.equal((await stat(join(dir.path, 'store'))).mode & 0o777, 0o700);
});

test('a lock whose holder is dead is taken over', async () => {
  await using dir = await temporaryDirectory();
  const lockPath = join(dir.path, 'tokens.json.lock');
  const pid = await deadPid();
  await writeFile(lockPath, JSON.stringify({ pid, since: Date.now(), nonce: 'dead' }));
  const told: LockHolder[] = [];
  const result = await withFileLock(
    lockPath,
    { ...PATIENT, onWait: (holder) => told.push(holder) },
    async () => 'ran',
  );
  assert.deepEqual([result, told], ['ran', []]);
  assert.deepEqual(await readdir(dir.path), [], 'no lock and no takeover file left');
});

test('a lock older than staleAfterMs is taken over even though its holder runs', async () => {
  await using dir = await temporaryDirectory();
  const lockPath = join(dir.path, 'tokens.json.lock');
  const since = Date.now() - 3_600_000;
  await writeFile(lockPath, JSON.stringify({ pid: process.pid, since, nonce: 'old' }));
  assert.equal(await withFileLock(lockPath, PATIENT, async () => 'ran'), 'ran');
});

test('a lock file its creator never wrote a holder into is taken over once it is old', async () => {
  await using dir = await temporaryDirectory();
  const lockPath = join(dir.path, 'tokens.json.lock');
  await writeFile(lockPath, '');
  const past = new Date(Date.now() - 60_000);
  await utimes(lockPath, past, past);
  assert.equal(await withFileLock(lockPath, PATIENT, async () => 'ran'), 'ran');
});

test('a live holder: the waiter is told once, then fails naming the lock file and the holder; the lock stays', async () => {
  await using dir = await temporaryDirectory();
  const lockPath = join(dir.path, 'tokens.json.lock');
  const holder = { pid: process.pid, since: Date.now(), nonce: 'live' };
  await writeFile(lockPath, JSON.stringify(holder));
  const told: LockHolder[] = [];
  let hasRun = false;
  await assert.rejects(
    withFileLock(
      lockPath,
      { waitMs: 300, staleAfterMs: 3_600_000, onWait: (seen) => told.push(seen) },
      async () => {
        hasRun = true;
      },
    ),
    (error: Error) => {
      assert.ok(
        error.message.startsWith(`${lockPath} is still held by process ${process.pid}`),
        error.message,
      );
      assert.match(error.message, /remove the file if no such process runs/);
      return true;
    },
  );
  assert.deepEqual([hasRun, told], [false, [holder]]);
  assert.deepEqual(await readdir(dir.path), ['tokens.json.lock']);
});
