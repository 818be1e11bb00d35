// What `mcpwire serve` can run over stdio: github with --db, a user's module (a Server as the default
// export, or a factory as the `server` export), and the usage errors for what it cannot.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { RawServerProcess } from '../../../test/support/raw-server-process.ts';
import { FIXTURES, MCPWIRE, runCli } from './support/cli-process.ts';

describe('mcpwire serve <server>', { concurrency: 4 }, () => {
  test('serve github --db :memory: answers initialize and exits 0 when stdin closes', async () => {
    const server = new RawServerProcess(['serve', 'github', '--db', ':memory:']);
    const result = await server.initialize();
    assert.equal(result.serverInfo.name.length > 0, true);
    assert.ok(result.capabilities.tools);
    assert.deepEqual(await server.close(), { code: 0, signal: null });
  });

  test('a module path: its default export, or its async `server` factory, served over stdio', async () => {
    const hello = await runCli([
      'call',
      'hello',
      'name=Ada',
      '--',
      ...MCPWIRE,
      'serve',
      join(FIXTURES, 'hello-server.ts'),
    ]);
    assert.deepEqual([hello.code, hello.stdout, hello.stderr], [0, 'Hello, Ada!\n', '']);
    const factory = await runCli([
      'call',
      'answer',
      '--',
      ...MCPWIRE,
      'serve',
      join(FIXTURES, 'factory-server.ts'),
    ]);
    assert.deepEqual([factory.code, factory.stdout], [0, '42\n'], factory.stderr);
  });

  test('usage errors exit 2 with one line: unknown server, not a server, --db or --host out of place', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['serve', 'nope'],
        /^mcpwire: unknown server "nope": expected everything or github, or the path of a JS\/TS module \(no file .*nope\)\n$/,
      ],
      [
        ['serve', join(FIXTURES, 'not-a-server.ts')],
        /^mcpwire: .*not-a-server\.ts must export a Server \(or a function returning one\) as its default or "server" export; found an object without connect\(\)\n$/,
      ],
      [
        ['serve', 'everything', '--db', 'x.db'],
        /^mcpwire: --db applies to "serve github" only, not to "everything"\n$/,
      ],
      [
        ['serve', 'everything', '--host', '0.0.0.0'],
        /^mcpwire: --host and --allow-host apply with --http <port>/,
      ],
      [
        ['serve', 'everything', '--http', '65536'],
        /^mcpwire: option '--http <port>' argument '65536' is invalid\. expected a port number from 0 to 65535\. \(see "mcpwire serve --help"\)\n$/,
      ],
    ];
    await Promise.all(
      cases.map(async ([args, message]) => {
        const result = await runCli(args);
        assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.equal(result.stdout, '');
        assert.match(result.stderr, message);
      }),
    );
  });
});
