// Issue 14, "what it must show" 1: the same small server (fixtures/server.ts, built at module scope),
// bundled with esbuild as a user would, served by real runtimes installed from npm (workerd through
// miniflare, deno, bun, node) and driven over real HTTP on 127.0.0.1: server/discover, tools/list,
// tools/call with invalid and valid arguments (JSON Schema and zod), an input_required round (S26-MRTR),
// and a handshake-era session (each of these runtimes keeps one isolate or process between requests).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { bundleFor, type EdgeRuntime } from './edge-bundle.ts';
import { HandshakeSession, sendStateless, textOf, type Loose } from './http-script.ts';
import { startRuntime, type RuntimeHost } from './runtime-host.ts';

const ENTRIES: Record<EdgeRuntime, string> = {
  workerd: 'worker.ts',
  deno: 'deno.ts',
  bun: 'bun.ts',
  node: 'node.ts',
};

// Runtimes start child processes and isolates on a shared 2-core machine: generous.
const TIMEOUT = 120_000;

for (const runtime of Object.keys(ENTRIES) as EdgeRuntime[]) {
  describe(`${runtime}: the bundled server over HTTP`, { timeout: TIMEOUT }, () => {
    const home = mkdtempSync(join(tmpdir(), `mcpwire-edge-${runtime}-`));
    let host: RuntimeHost | undefined;
    const started = (async () => {
      const bundle = await bundleFor(ENTRIES[runtime], runtime, { outDir: home });
      host = await startRuntime(runtime, bundle.file, home);
      return host;
    })();
    after(async () => {
      await host?.[Symbol.asyncDispose]();
      rmSync(home, { recursive: true, force: true });
    });

    test('server/discover names the stateless era and the server', async () => {
      const { url } = await started;
      const { result } = await sendStateless(url, 'server/discover');
      assert.ok(result.supportedVersions.includes('2026-07-28'), JSON.stringify(result));
      assert.equal(result._meta['io.modelcontextprotocol/serverInfo'].name, 'edge-echo');
      assert.ok(result.capabilities.tools);
    });

    test('tools/list shows the JSON Schema tool and the zod tool converted to JSON Schema', async () => {
      const { url } = await started;
      const { result } = await sendStateless(url, 'tools/list');
      const byName = new Map((result.tools as Loose[]).map((tool) => [tool.name, tool]));
      assert.deepEqual([...byName.keys()], ['echo', 'shout', 'confirm']);
      assert.deepEqual(byName.get('shout')!.inputSchema.required, ['text']);
      assert.equal(byName.get('shout')!.inputSchema.properties.text.minLength, 1);
    });

    test('invalid arguments are a tool error with the validator message, valid ones are answered', async () => {
      const { url } = await started;
      const bad = await sendStateless(url, 'tools/call', { name: 'echo', arguments: { text: 5 } });
      assert.equal(bad.result.isError, true);
      assert.equal(textOf(bad.result), 'Invalid arguments for tool "echo": /text: must be string');
      const missing = await sendStateless(url, 'tools/call', { name: 'echo', arguments: {} });
      assert.equal(
        textOf(missing.result),
        `Invalid arguments for tool "echo": (root): must have required property 'text'`,
      );
      const good = await sendStateless(url, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
      assert.equal(good.result.isError, undefined);
      assert.equal(textOf(good.result), 'echo: hi');
    });

    test('the zod tool validates with zod itself', async () => {
      const { url } = await started;
      const bad = await sendStateless(url, 'tools/call', { name: 'shout', arguments: { text: '' } });
      assert.equal(bad.result.isError, true);
      assert.match(textOf(bad.result), /^Invalid arguments for tool "shout": \/text: Too small/);
      const good = await sendStateless(url, 'tools/call', { name: 'shout', arguments: { text: 'hi' } });
      assert.equal(textOf(good.result), 'HI');
    });

    test('input_required: the tool asks, the answer and the sealed requestState complete it', async () => {
      const { url } = await started;
      const first = await sendStateless(url, 'tools/call', { name: 'confirm', arguments: {} });
      assert.equal(first.result.resultType, 'input_required');
      const [key, request] = Object.entries(first.result.inputRequests as Loose)[0]!;
      assert.equal(request.method, 'elicitation/create');
      assert.equal(typeof first.result.requestState, 'string');
      const second = await sendStateless(url, 'tools/call', {
        name: 'confirm',
        arguments: {},
        inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
        requestState: first.result.requestState,
      });
      assert.equal(second.result.resultType, 'complete');
      assert.equal(textOf(second.result), 'confirmed');
    });

    test('a handshake-era session: initialize, a call in the session, DELETE', async () => {
      const { url } = await started;
      const session = new HandshakeSession(url);
      const init = await session.open();
      assert.equal(init.result.protocolVersion, '2025-11-25');
      assert.match(session.sessionId ?? '', /^[0-9a-f-]{36}$/);
      const call = await session.send('tools/call', { name: 'echo', arguments: { text: 'in a session' } });
      assert.equal(textOf(call.result), 'echo: in a session');
      const bad = await session.send('tools/call', { name: 'echo', arguments: { text: 1 } });
      assert.equal(textOf(bad.result), 'Invalid arguments for tool "echo": /text: must be string');
      assert.equal(await session.close(), 204);
      // The session is gone: its id is no longer found.
      await assert.rejects(session.send('tools/list'), /HTTP 404/);
    });
  });
}
