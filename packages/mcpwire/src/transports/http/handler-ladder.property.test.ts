// The stateless era's validation ladder through the HTTP handler, in-process (S26-HTTP-11..14,
// S26-VER-2, S26-HDR-5): for any combination of faults in one request, the error is the first fault
// in the ladder's order, the order of the conformance suite's stateless mock.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import fc from 'fast-check';

import { checkProperty } from '../../../../../test/support/property.ts';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { STATELESS_VERSION, statelessPost, type Loose } from '../../../test/support/http-kit.ts';
import { createHttpHandler } from './handler.ts';

const handler = createHttpHandler(createFixtureServer(), { keepAliveMs: 0 });

/** One request's faults, each independent: what the version, method, name and param headers say. */
interface Faults {
  version: 'ok' | 'unsupported' | 'handshake-era' | 'header missing' | 'header differs';
  method: 'ok' | 'missing' | 'differs' | 'other case';
  name: 'ok' | 'missing' | 'differs' | 'undecodable';
  param: 'ok' | 'missing' | 'differs';
}

const faults: fc.Arbitrary<Faults> = fc.record({
  version: fc.constantFrom('ok', 'unsupported', 'handshake-era', 'header missing', 'header differs'),
  method: fc.constantFrom('ok', 'missing', 'differs', 'other case'),
  name: fc.constantFrom('ok', 'missing', 'differs', 'undecodable'),
  param: fc.constantFrom('ok', 'missing', 'differs'),
});

/** A `tools/call` of the fixture's `test_custom_header` (its `region` mirrored into Mcp-Param-Region) with `f`. */
function request(f: Faults): Request {
  const claimed =
    { unsupported: 'v999.0.0', 'handshake-era': '2025-11-25' }[f.version as string] ?? STATELESS_VERSION;
  const header = { 'header missing': null, 'header differs': 'v999.0.0' }[f.version as string];
  return statelessPost(
    'tools/call',
    { name: 'test_custom_header', arguments: { region: 'us-west1' } },
    {
      id: 'ladder',
      meta: { 'io.modelcontextprotocol/protocolVersion': claimed },
      headers: {
        'MCP-Protocol-Version': header === undefined ? claimed : header,
        'Mcp-Method': { ok: 'tools/call', missing: null, differs: 'tools/list', 'other case': 'TOOLS/CALL' }[
          f.method
        ],
        'Mcp-Name': {
          ok: 'test_custom_header',
          missing: null,
          differs: 'echo',
          undecodable: '=?base64?dGVzdA?=',
        }[f.name],
        'Mcp-Param-Region': { ok: 'us-west1', missing: null, differs: 'eu-central1' }[f.param],
      },
    },
  );
}

/** The answer the ladder prescribes: the first fault in its order, or a served call. */
function expected(f: Faults): { code: number; mentions: RegExp } | undefined {
  if (f.version === 'header missing' || f.version === 'header differs')
    return { code: -32020, mentions: /MCP-Protocol-Version/ };
  if (f.version === 'unsupported' || f.version === 'handshake-era')
    return { code: -32022, mentions: /version/ };
  if (f.method !== 'ok') return { code: -32020, mentions: /Mcp-Method/ };
  if (f.name !== 'ok') return { code: -32020, mentions: /Mcp-Name/ };
  if (f.param !== 'ok') return { code: -32020, mentions: /Mcp-Param-Region/ };
  return undefined;
}

async function answer(f: Faults): Promise<{ status: number; body: Record<string, Loose> }> {
  const response = await handler(request(f));
  return { status: response.status, body: (await response.json()) as Record<string, Loose> };
}

describe('stateless era: the validation ladder, property', () => {
  test('for any faults, the answer is the first in ladder order: version header, version served (-32022), Mcp-Method, Mcp-Name, Mcp-Param-*', async (t) => {
    await checkProperty(
      t,
      fc.asyncProperty(faults, async (f) => {
        const { status, body } = await answer(f);
        const want = expected(f);
        assert.equal(body.id, 'ladder', 'errors echo the id (S26-HTTP-17)');
        if (want === undefined) {
          assert.equal(status, 200);
          assert.equal(body.result.content[0].text, 'Region: us-west1');
          return;
        }
        assert.equal(status, 400);
        assert.equal(body.error.code, want.code, body.error.message);
        assert.match(body.error.message, want.mentions);
        if (want.code === -32022) {
          const requested = f.version === 'unsupported' ? 'v999.0.0' : '2025-11-25';
          assert.deepEqual(body.error.data, { supported: [STATELESS_VERSION], requested });
        }
      }),
      {
        examples: [
          // Issue 13: an unsupported version with Mcp-Method missing got -32020, hiding the versions
          // the client could retry with.
          [{ version: 'unsupported', method: 'missing', name: 'ok', param: 'ok' }],
          [{ version: 'unsupported', method: 'ok', name: 'differs', param: 'missing' }],
        ],
      },
    );
  });

  test('an unsupported version lacking Mcp-Method gets -32022 with supported and requested (S26-VER-2)', async () => {
    const { status, body } = await answer({
      version: 'unsupported',
      method: 'missing',
      name: 'ok',
      param: 'ok',
    });
    assert.equal(status, 400);
    assert.deepEqual(
      [body.error.code, body.error.data],
      [-32022, { supported: [STATELESS_VERSION], requested: 'v999.0.0' }],
    );
  });
});
