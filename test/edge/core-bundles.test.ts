// The size rows' servers work (issue 14): the two ServerCore Workers that bench/size.ts measures, a
// hand-written Standard Schema tool and a JSON Schema tool on cfworker, behind createSessionlessHandler,
// bundled as a user would and served by workerd (miniflare) over real HTTP on 127.0.0.1: discover
// declares tools and no feature it left out (resources/list is -32601), invalid arguments get the
// validator's message, valid ones an answer, in both eras (the handshake era without a session).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { bundleFor } from './edge-bundle.ts';
import { HandshakeSession, sendStateless, textOf } from './http-script.ts';
import { startRuntime, type RuntimeHost } from './runtime-host.ts';

const CASES = [
  { entry: 'worker-standard.ts', invalid: 'Invalid arguments for tool "echo": /text: must be string' },
  {
    entry: 'worker-core-json-schema.ts',
    invalid: 'Invalid arguments for tool "echo": /text: must be string',
  },
];

for (const { entry, invalid } of CASES) {
  describe(`workerd: the ServerCore Worker ${entry}`, { timeout: 120_000 }, () => {
    const home = mkdtempSync(join(tmpdir(), 'mcpwire-edge-core-'));
    let host: RuntimeHost | undefined;
    const started = (async () => {
      const bundle = await bundleFor(entry, 'workerd', { outDir: home });
      host = await startRuntime('workerd', bundle.file, home);
      return host;
    })();
    after(async () => {
      await host?.[Symbol.asyncDispose]();
      rmSync(home, { recursive: true, force: true });
    });

    test('stateless: discover declares tools and logging only; a call is checked, then answered', async () => {
      const { url } = await started;
      const { result } = await sendStateless(url, 'server/discover');
      assert.deepEqual(Object.keys(result.capabilities).sort(), ['logging', 'tools']);
      const bad = await sendStateless(url, 'tools/call', { name: 'echo', arguments: { text: 5 } });
      assert.equal(bad.result.isError, true);
      assert.equal(textOf(bad.result), invalid);
      const good = await sendStateless(url, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
      assert.equal(textOf(good.result), 'echo: hi');
      // What the server does not declare is not found: -32601 on a 404 (the stateless era's mapping).
      await assert.rejects(sendStateless(url, 'resources/list'), /HTTP 404: .*"code":-32601/);
    });

    test('the handshake era without a session: initialize gives no id, a call, DELETE is 405', async () => {
      const { url } = await started;
      const session = new HandshakeSession(url);
      const init = await session.open();
      assert.equal(session.sessionId, undefined);
      assert.equal(init.result.capabilities.resources, undefined);
      const bad = await session.send('tools/call', { name: 'echo', arguments: { text: 5 } });
      assert.equal(textOf(bad.result), invalid);
      const call = await session.send('tools/call', { name: 'echo', arguments: { text: 'no session' } });
      assert.equal(textOf(call.result), 'echo: no session');
      assert.equal(await session.close(), 405);
    });
  });
}
