// `mcpwire bridge --http 0 -- mcpwire serve everything --era handshake`, 2026-07-28 clients: the
// child's skills extension passes through (declared with the child's settings, its methods
// forwarded).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BridgeProcess } from './support/bridge-process.ts';
import { MCPWIRE_ARGV } from '../../../test/support/cli-child.ts';
import { statelessRequest } from '../../../test/support/raw-mcp-http.ts';

/** `mcpwire serve everything` restricted to the handshake era: a 2025-only stdio server. */
const HANDSHAKE_EVERYTHING = [...MCPWIRE_ARGV, 'serve', 'everything', '--era', 'handshake'];

const SKILLS = 'io.modelcontextprotocol/skills';

describe(
  'bridge --http: extensions and capabilities through the 2026-07-28 front',
  { concurrency: 1 },
  () => {
    test("the child's skills extension is declared and its methods answered", async () => {
      const { bridge, url } = await BridgeProcess.start([], HANDSHAKE_EVERYTHING);
      await using _bridge = bridge;
      const discover = await statelessRequest(url, 'server/discover', {});
      const extensions = (discover.message.result?.capabilities as { extensions?: Record<string, unknown> })
        ?.extensions;
      assert.deepEqual(extensions?.[SKILLS], { directoryRead: true }, JSON.stringify(discover.message));
      const caps = { extensions: { [SKILLS]: {} } };
      const listed = await statelessRequest(url, 'skills/list', {}, { capabilities: caps });
      const skills = (listed.message.result?.skills ?? []) as Array<{ uri: string }>;
      assert.ok(
        skills.some((skill) => skill.uri === 'skill://pdf-processing/SKILL.md'),
        JSON.stringify(listed.message),
      );
      const got = await statelessRequest(
        url,
        'skills/get',
        { uri: 'skill://release-notes/SKILL.md' },
        { capabilities: caps },
      );
      assert.equal((got.message.result?.skill as { uri?: string })?.uri, 'skill://release-notes/SKILL.md');
      const directory = await statelessRequest(
        url,
        'resources/directory/read',
        { uri: 'skill://pdf-processing' },
        { capabilities: caps },
      );
      assert.ok(Array.isArray(directory.message.result?.resources), JSON.stringify(directory.message));
    });
  },
);
