// What a Worker bundle carries (issue 14, "a small core"): with the Workers conditions the web handler path
// pulls in neither Ajv, nor the legacy HTTP+SSE transport, the client or the Node adapter, and nothing in
// it generates code from strings; without those conditions (a plain Node bundle) Ajv is there, so the
// check can fail. Sizes are printed for the record; the benchmark (bench/size.ts) holds the comparison.

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
