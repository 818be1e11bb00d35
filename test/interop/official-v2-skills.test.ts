// The official v2 SDK's skills API (`@modelcontextprotocol/client/ext/skills`, SEP-2640) against
// `mcpwire serve everything` over a real stdio child process, in both eras: it enumerates our skills,
// reads and verifies every file (size, digest, and SKILL.md's frontmatter) and walks a directory.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { OUR_EVERYTHING_SERVER, StderrTail } from './stdio-peers.ts';

const ERAS = [
  { name: 'stateless era (auto negotiation, 2026-07-28)', options: {} },
  { name: 'handshake era (2025-11-25)', options: { versionNegotiation: { mode: 'legacy' as const } } },
];

for (const era of ERAS) {
  test(`official v2 SkillsClient, ${era.name}: enumerates our skills and verifies every file`, async () => {
    const stderr = new StderrTail();
    const client = new Client({ name: 'interop-official-v2-skills', version: '2.0.0' }, era.options);
    const transport = new StdioClientTransport({ ...OUR_EVERYTHING_SERVER, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk.toString('utf8')));
    await client.connect(transport);
    try {
      const skills = new SkillsClient(client);
      assert.equal(skills.supported, true, `the extension is declared (stderr: ${stderr.toString()})`);
      assert.equal(skills.directoryRead, true);
      const listing = await skills.list();
      assert.deepEqual(listing.invalid, []);
      assert.deepEqual(
        listing.skills.map((skill) => skill.uri),
        ['skill://pdf-processing/SKILL.md', 'skill://release-notes/SKILL.md'],
      );
      const pdf = listing.skills[0]!;
      assert.deepEqual(pdf.frontmatter.metadata, { author: 'mcpwire', version: '1.0' });
      assert.ok(Array.isArray(pdf.resources));
      // Every listed file, read through the SDK's verification (throws SkillVerificationError on a mismatch).
      for (const skill of listing.skills) {
        for (const file of skill.resources === 'dynamic' ? [] : skill.resources) {
          const read = await skills.read(skill, file.uri);
          assert.equal(read.verified, true, file.uri);
          assert.equal(read.bytes.byteLength, file.size, file.uri);
        }
      }
      const manifest = await skills.read(pdf);
      assert.equal(manifest.frontmatter?.name, 'pdf-processing');
      assert.match(manifest.body ?? '', /# PDF processing/);
      const got = await skills.get('skill://release-notes/SKILL.md');
      assert.equal(
        got.skill.frontmatter.description,
        'Write release notes from a list of merged changes, grouped by kind.',
      );
      const directory = await skills.readDirectory('skill://pdf-processing');
      assert.deepEqual(
        directory.resources.map((child) => [child.uri, child.mimeType]),
        [
          ['skill://pdf-processing/SKILL.md', 'text/markdown'],
          ['skill://pdf-processing/references', 'inode/directory'],
          ['skill://pdf-processing/scripts', 'inode/directory'],
        ],
      );
    } finally {
      await client.close();
    }
  });
}
