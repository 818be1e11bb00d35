// The file token store on a real file system (a temporary directory): owner-only permissions (AUTH-29),
// records that survive a new store on the same file, serialized concurrent writes, atomic replacement.

import assert from 'node:assert/strict';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createFileTokenStore } from './file-token-store.ts';
import type { IssuerRecord } from './token-store.ts';

/** A fresh directory, removed by `await using`. */
async function temporaryDirectory(): Promise<AsyncDisposable & { path: string }> {
  const path = await mkdtemp(join(tmpdir(), 'mcpwire-token-store-'));
  return { path, [Symbol.asyncDispose]: () => rm(path, { recursive: true, force: true }) };
}

const RECORD: IssuerRecord = {
  client: { client_id: 'c-1' },
  tokens: { accessToken: 'at-1', tokenType: 'Bearer', refreshToken: 'rt-1', expiresAt: 1_000 },
  resource: 'https://mcp.example/mcp',
};

test('AUTH-29: the file is created 0600 in a 0700 directory, and a new store on it reads the records back', async () => {
  await using dir = await temporaryDirectory();
  const path = join(dir.path, 'nested', 'tokens.json');
  const store = createFileTokenStore(path);
  assert.equal(await store.get('https://as.example'), undefined);
  await assert.rejects(stat(path), { code: 'ENOENT' }, 'reading creates nothing');
  await store.set('https://as.example', RECORD);
  assert.equal((await stat(path)).mode & 0o777, 0o600);
  assert.equal((await stat(join(dir.path, 'nested'))).mode & 0o777, 0o700);
  assert.deepEqual(await createFileTokenStore(path).get('https://as.example'), RECORD);
  await store.delete('https://as.example');
  assert.equal(await createFileTokenStore(path).get('https://as.example'), undefined);
});

test('AUTH-29: a store file another program left readable by others is replaced by an owner-only one', async () => {
  await using dir = await temporaryDirectory();
  const path = join(dir.path, 'tokens.json');
  await writeFile(path, '{"version":1,"issuers":{}}\n');
  await chmod(path, 0o644);
  await createFileTokenStore(path).set('https://as.example', RECORD);
  assert.equal((await stat(path)).mode & 0o777, 0o600);
});

test('20 concurrent sets in one process all land, and no temporary file is left beside the store', async () => {
  await using dir = await temporaryDirectory();
  const path = join(dir.path, 'tokens.json');
  const store = createFileTokenStore(path);
  const issuers = Array.from({ length: 20 }, (_, i) => `https://as-${i}.example`);
  await Promise.all(
    issuers.map((issuer, i) =>
      store.set(issuer, { tokens: { accessToken: `at-${i}`, tokenType: 'Bearer' } }),
    ),
  );
  const file = JSON.parse(await readFile(path, 'utf8')) as { issuers: Record<string, IssuerRecord> };
  assert.deepEqual(Object.keys(file.issuers).sort(), [...issuers].sort());
  assert.equal((await store.get('https://as-7.example'))?.tokens?.accessToken, 'at-7');
  assert.deepEqual(await readdir(dir.path), ['tokens.json']);
});

test('a file that is not a token store is refused with its path, not overwritten', async () => {
  await using dir = await temporaryDirectory();
  const path = join(dir.path, 'tokens.json');
  await writeFile(path, 'not json');
  const store = createFileTokenStore(path);
  await assert.rejects(
    store.get('https://as.example'),
    new RegExp(`${path.replaceAll('/', '\\/')} is not JSON`),
  );
  await assert.rejects(store.set('https://as.example', RECORD), /is not JSON/);
  assert.equal(await readFile(path, 'utf8'), 'not json');
});

test('a reader never sees half a file: every read during 40 rewrites of a large store parses', async () => {
  await using dir = await temporaryDirectory();
  const path = join(dir.path, 'tokens.json');
  const store = createFileTokenStore(path);
  const large = (index: number): IssuerRecord => ({
    tokens: { accessToken: `${index}-${'x'.repeat(400_000)}`, tokenType: 'Bearer' },
  });
  await store.set('https://as.example', large(0));
  let isWriting = true;
  const writes = (async () => {
    for (let index = 1; index <= 40; index++) await store.set('https://as.example', large(index));
    isWriting = false;
  })();
  let reads = 0;
  const partial: number[] = [];
  while (isWriting) {
    const text = await readFile(path, 'utf8');
    try {
      JSON.parse(text);
    } catch {
      partial.push(text.length);
    }
    reads++;
  }
  await writes;
  assert.ok(reads > 0);
  assert.deepEqual(partial, [], `reads that saw a partial file (their lengths) out of ${reads}`);
  assert.equal((await store.get('https://as.example'))?.tokens?.accessToken.startsWith('40-'), true);
});

test('exclusive: the flows of two stores on one file (two processes) run one at a time, under <file>.lock', async () => {
  await using dir = await temporaryDirectory();
  const path = join(dir.path, 'tokens.json');
  let onWait = (): void => {};
  const waited = new Promise<void>((resolve) => (onWait = resolve));
  const first = createFileTokenStore(path);
  const second = createFileTokenStore(path, { onLockWait: () => onWait() });
  const seen: string[] = [];
  let release: (() => void) | undefined;
  const held = first.exclusive!(async () => {
    seen.push('first in');
    assert.deepEqual(await readdir(dir.path), ['tokens.json.lock']);
    await new Promise<void>((resolve) => (release = resolve));
    await first.set('https://as.example', RECORD);
    seen.push('first out');
  });
  // The second flow starts once the first holds the lock (started together, either may win it).
  while (release === undefined) await new Promise((resolve) => setImmediate(resolve));
  const waiting = second.exclusive!(async () => {
    seen.push('second in');
    return second.get('https://as.example');
  });
  await waited;
  release();
  await held;
  assert.deepEqual(await waiting, RECORD, 'the waiter reads what the holder wrote');
  assert.deepEqual(seen, ['first in', 'first out', 'second in']);
  assert.deepEqual(await readdir(dir.path), ['tokens.json']);
});
