// The auth layer's place in STYLE.md's table, shown rule by rule on small in-memory trees: it may use
// protocol/ and web standards only, and no transport, client or server imports it.

import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkTree, LIBRARY_DIR, type Tree } from './architecture/rules.ts';

const SRC = `${LIBRARY_DIR}/src`;

function violationsOf(files: Record<string, string>): string[] {
  const tree: Tree = { files: new Map(Object.entries(files)), packages: [] };
  return checkTree(tree);
}

test('auth/ may import protocol/ and itself', () => {
  assert.deepEqual(
    violationsOf({
      [`${SRC}/auth/a.ts`]:
        "import { METHODS } from '../protocol/methods.ts';\nimport { b } from './b.ts';\nvoid METHODS; void b;\n",
      [`${SRC}/auth/b.ts`]: 'export const b = 1;\n',
    }),
    [],
  );
});

test('fails: auth/ importing a transport, the client, the server or node:*', () => {
  for (const [specifier, rule] of [
    [
      '../transports/http/client-transport.ts',
      /layer: "auth" imports transports\/http\/client-transport\.ts/,
    ],
    ['../client/client.ts', /layer: "auth" imports client\/client\.ts/],
    ['../server/server.ts', /layer: "auth" imports server\/server\.ts/],
    ['node:fs', /node: layer "auth" imports node:fs/],
  ] as const) {
    const violations = violationsOf({ [`${SRC}/auth/a.ts`]: `import { x } from '${specifier}';\nvoid x;\n` });
    assert.ok(
      violations.some((line) => rule.test(line)),
      `${specifier}: ${violations.join('\n')}`,
    );
  }
});

test('fails: a transport, the client or the server importing auth/', () => {
  for (const layer of ['transports', 'client', 'server']) {
    const path = `${SRC}/${layer}/x.ts`;
    const violations = violationsOf({
      [path]: "import { createOAuthFetch } from '../auth/oauth-fetch.ts';\nvoid createOAuthFetch;\n",
    });
    assert.ok(
      violations.some((line) => line.startsWith(`${path}: layer: "${layer}" imports auth/oauth-fetch.ts`)),
      violations.join('\n'),
    );
  }
});

test('auth/node.ts, file-token-store.ts (with its file-lock.ts) and address-checked-fetch.ts are the auth files allowed node:*; only node.ts imports them', async () => {
  for (const file of ['file-token-store.ts', 'file-lock.ts', 'address-checked-fetch.ts', 'node.ts'])
    assert.deepEqual(
      violationsOf({
        [`${SRC}/auth/${file}`]: "import { readFile } from 'node:fs/promises';\nvoid readFile;\n",
      }),
      [],
    );
  // mcpwire/auth stays web-standard: the Node parts are reached only through mcpwire/auth/node.
  const dir = join(import.meta.dirname, '..', SRC, 'auth');
  const importers: string[] = [];
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.ts') || name === 'node.ts' || name.endsWith('.test.ts')) continue;
    const text = await readFile(join(dir, name), 'utf8');
    if (/from '\.\/(file-token-store|address-checked-fetch|node)\.ts'/.test(text)) importers.push(name);
    // The lock is the file token store's own.
    if (name !== 'file-token-store.ts' && /from '\.\/file-lock\.ts'/.test(text)) importers.push(name);
  }
  assert.deepEqual(importers, []);
});
