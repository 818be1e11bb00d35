// Every official 2026-07-28 example message decodes with our codec and round-trips unchanged;
// examples that are not whole messages (params, results, content) round-trip inside a response.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeFrame, encodeMessage } from 'mcpwire';
import type { Message } from 'mcpwire';

const EXAMPLES = join(import.meta.dirname, '../spec/2026-07-28/examples');

const files = readdirSync(EXAMPLES).flatMap((type) =>
  readdirSync(join(EXAMPLES, type))
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(type, name)),
);

test('there are official examples to check', () => {
  assert.ok(files.length > 100, `found ${files.length} example files`);
});

for (const file of files) {
  test(`example ${file}`, () => {
    const text = readFileSync(join(EXAMPLES, file), 'utf8');
    const value = JSON.parse(text) as Record<string, unknown>;
    const isMessage = value.jsonrpc === '2.0';
    const message = (isMessage
      ? value
      : { jsonrpc: '2.0', id: 'example', result: value }) as unknown as Message;
    const frame = decodeFrame(isMessage ? text : JSON.stringify(message));
    assert.equal(frame.type, 'message', `${file} did not decode: ${JSON.stringify(frame)}`);
    if (frame.type !== 'message') return;
    assert.deepEqual(frame.message, message);
    assert.deepEqual(JSON.parse(encodeMessage(frame.message)), message);
  });
}
