// What a Worker bundle carries (issue 14, "a small core"): with the Workers conditions the web handler path
// pulls in neither Ajv, nor the legacy HTTP+SSE transport, the client or the Node adapter, and nothing in
// it generates code from strings; without those conditions (a plain Node bundle) Ajv is there, so the
// check can fail. A server on ServerCore behind createSessionlessHandler also leaves out sessions (the
// JSON-RPC session, the server session, HTTP sessions and their event store), resources, prompts,
// completions and (with Standard Schema tools) every JSON Schema validator; on Server behind
// createHttpHandler they are kept, so that check can fail too. Sizes are printed for the record; the
// benchmark (bench/size.ts) holds the comparison.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { bundleFor, type EdgeBundle } from './edge-bundle.ts';

const dir = mkdtempSync(join(tmpdir(), 'mcpwire-edge-bundle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const LEFT_OUT = [
  /node_modules\/ajv/,
  /node_modules\/fast-uri/,
  /src\/transports\/http\/legacy-sse-(server|client)\.ts$/,
  /src\/transports\/http\/client-/,
  /src\/client\//,
  /src\/transports\/http\/node\.ts$/,
  /src\/transports\/stdio\//,
];

/** What Server adds to ServerCore: its features' modules. */
const FEATURES = [
  /src\/server\/(resources|resource-templates|prompts|completion|feature-handlers)\.ts$/,
  /src\/protocol\/uri-template/,
];
/** What sessions take: what `Server.connect` and createHttpHandler's handshake routes reach. */
const SESSIONS = [
  /src\/jsonrpc\/peer\.ts$/,
  /src\/protocol\/session\.ts$/,
  /src\/server\/server-session\.ts$/,
  /src\/transports\/http\/(http-session|sessions|handshake-routes|sse-stream|event-store)\.ts$/,
];
const VALIDATORS = [/node_modules\/@cfworker\//, /src\/validation\/cfworker-/, /node_modules\/ajv/];

function keptOf(bundle: EdgeBundle, patterns: readonly RegExp[]): string[] {
  return bundle.inputs.filter((input) => patterns.some((pattern) => pattern.test(input)));
}

test('the Worker bundle of the JSON Schema server leaves Ajv, the client, SSE-legacy and node out', async (t) => {
  const bundle = await bundleFor('worker-json-schema.ts', 'workerd', { outDir: join(dir, 'json') });
  assert.deepEqual(keptOf(bundle, LEFT_OUT), []);
  assert.ok(
    bundle.inputs.some((input) => input.includes('@cfworker/json-schema')),
    'cfworker validates it',
  );
  assert.doesNotMatch(bundle.code, /new Function|\beval\(/);
  t.diagnostic(`workerd JSON Schema bundle: ${bundle.bytes} B, ${bundle.gzipBytes} B gzipped`);
});

test('the Worker bundle of the zod server leaves the same out', async () => {
  const bundle = await bundleFor('worker.ts', 'workerd', { outDir: join(dir, 'zod') });
  assert.deepEqual(keptOf(bundle, LEFT_OUT), []);
});

test('a bundle for Node keeps Ajv (the default where code generation is allowed)', async () => {
  const bundle = await bundleFor('worker-json-schema.ts', 'node', { outDir: join(dir, 'node') });
  assert.ok(keptOf(bundle, [/node_modules\/ajv\//]).length > 0);
  assert.match(bundle.code, /new Function/);
});

test('a ServerCore bundle with a Standard Schema tool has no feature beyond tools and no JSON Schema validator', async (t) => {
  const bundle = await bundleFor('worker-standard.ts', 'workerd', { outDir: join(dir, 'core') });
  assert.deepEqual(keptOf(bundle, [...LEFT_OUT, ...SESSIONS, ...FEATURES, ...VALIDATORS]), []);
  t.diagnostic(`workerd ServerCore Standard Schema bundle: ${bundle.gzipBytes} B gzipped`);
  const withValidator = await bundleFor('worker-core-json-schema.ts', 'workerd', {
    outDir: join(dir, 'core-json'),
  });
  assert.deepEqual(keptOf(withValidator, [...LEFT_OUT, ...SESSIONS, ...FEATURES]), []);
  assert.ok(keptOf(withValidator, VALIDATORS).length > 0, 'the validator it was given is there');
  assert.doesNotMatch(withValidator.code, /new Function|\beval\(/);
});

test('a Server bundle keeps the features and the sessions ServerCore leaves out', async () => {
  const bundle = await bundleFor('worker-json-schema.ts', 'workerd', { outDir: join(dir, 'server') });
  assert.equal(keptOf(bundle, FEATURES).length > 0, true);
  const missing = SESSIONS.filter((pattern) => !bundle.inputs.some((input) => pattern.test(input)));
  assert.deepEqual(missing, []);
});

test('a client bundled for Workers, Deno and Bun rides fetch: the node:http pool is left out, and kept for Node', async () => {
  const nodePool = [/src\/transports\/http\/node-requester\.ts$/];
  for (const runtime of ['workerd', 'deno', 'bun'] as const) {
    const bundle = await bundleFor('client.ts', runtime, { outDir: join(dir, `client-${runtime}`) });
    assert.deepEqual(keptOf(bundle, nodePool), [], runtime);
    assert.ok(keptOf(bundle, [/src\/transports\/http\/default-requester\.ts$/]).length > 0, runtime);
    assert.doesNotMatch(bundle.code, /node:http/, runtime);
  }
  const bundle = await bundleFor('client.ts', 'node', { outDir: join(dir, 'client-node') });
  assert.ok(keptOf(bundle, nodePool).length > 0, 'Node bundles the pool');
});
