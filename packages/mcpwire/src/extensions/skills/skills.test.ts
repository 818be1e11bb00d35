// The skills extension end to end over the in-memory channel pair, in both eras: enumeration, the
// manifest, skill:// resources, directory reads, and the host's checks of every read (S26-SKILL-*).

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { RpcError } from '../../jsonrpc/rpc-error.ts';
import { CapabilityNotNegotiatedError } from '../../protocol/capabilities.ts';
import type { JsonObject } from '../../jsonrpc/message.ts';
import { Client } from '../../client/client.ts';
import { Server } from '../../server/server.ts';
import { createMemoryPair } from '../../transports/memory.ts';
import { skills, SkillsClient, SkillVerificationError, type SkillFiles } from './index.ts';

const SKILL_MD = `---
name: pdf-processing
description: Extract text from PDF files.
metadata:
  author: test
---

Read [FORMS.md](references/FORMS.md) for forms.
`;
const FORMS_MD = 'How to fill forms.\n';
const FILES: SkillFiles = {
  'pdf-processing/SKILL.md': SKILL_MD,
  'pdf-processing/references/FORMS.md': FORMS_MD,
  'other-skill/SKILL.md': '---\nname: other-skill\ndescription: Another one.\n---\nBody.\n',
};
const SKILL_URI = 'skill://pdf-processing/SKILL.md';
const FORMS_URI = 'skill://pdf-processing/references/FORMS.md';

function digest(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** A server with the skills, and a connected client in `era`; `reads` records every resources/read. */
async function connect(
  era: 'handshake' | 'auto',
  options: { files?: SkillFiles; tamper?: (text: string) => string; directoryRead?: boolean } = {},
) {
  const server = new Server(
    { name: 'skills-test', version: '1' },
    {
      extensions: [
        skills(options.files ?? FILES, { directoryRead: options.directoryRead ?? true, pageSize: 1 }),
      ],
    },
  );
  const reads: string[] = [];
  server.use(async ({ method, params }, next) => {
    if (method === 'resources/read') reads.push(params.uri as string);
    const result = await next();
    if (method !== 'resources/read' || !options.tamper) return result;
    const [content] = result.contents as JsonObject[];
    return { ...result, contents: [{ ...content, text: options.tamper(content!.text as string) }] };
  });
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client(
    { name: 'skills-host', version: '1' },
    { era, eraCache: false, extensions: [skills()] },
  );
  await client.connect(clientEnd);
  return { server, client, host: new SkillsClient(client), reads };
}

for (const era of ['handshake', 'auto'] as const) {
  test(`${era}: the extension is declared with resources, and skills/list pages whole entries (S26-SKILL-1, -3, -4)`, async () => {
    const { client, host, reads } = await connect(era);
    assert.deepEqual(client.serverCapabilities?.extensions, {
      'io.modelcontextprotocol/skills': { directoryRead: true },
    });
    assert.ok(client.serverCapabilities?.resources, 'resources declared too');
    const listed = await host.list();
    // pageSize 1: two pages, one whole entry each (sorted by path).
    assert.deepEqual(
      listed.map((skill) => skill.uri),
      ['skill://other-skill/SKILL.md', SKILL_URI],
    );
    const pdf = listed[1]!;
    assert.deepEqual(pdf.frontmatter, {
      name: 'pdf-processing',
      description: 'Extract text from PDF files.',
      metadata: { author: 'test' },
    });
    assert.deepEqual(pdf.resources, [
      { uri: SKILL_URI, digest: digest(SKILL_MD), size: Buffer.byteLength(SKILL_MD) },
      { uri: FORMS_URI, digest: digest(FORMS_MD), size: Buffer.byteLength(FORMS_MD) },
    ]);
    assert.deepEqual(reads, [], 'listing reads no skill file (no prefetch)');
    await client.close();
  });

  test(`${era}: skills/get answers any served skill and -32602 for an unknown one (S26-SKILL-4)`, async () => {
    const { client, host } = await connect(era);
    assert.equal((await host.get(SKILL_URI)).frontmatter.name, 'pdf-processing');
    await assert.rejects(
      client.request('skills/get', { uri: 'skill://nope/SKILL.md' }),
      (error: unknown) => error instanceof RpcError && error.code === -32602,
    );
    await client.close();
  });

  test(`${era}: files are resources; a verified read gives the frontmatter and body (S26-SKILL-2, -6)`, async () => {
    const { client, host, reads } = await connect(era);
    const resources = await client.listAllResources();
    const manifest = resources.find((resource) => resource.uri === SKILL_URI);
    assert.deepEqual(manifest, {
      uri: SKILL_URI,
      name: 'pdf-processing',
      description: 'Extract text from PDF files.',
      mimeType: 'text/markdown',
    });
    const skill = await host.get(SKILL_URI);
    const file = await host.read(skill);
    assert.equal(file.text, SKILL_MD);
    assert.equal(file.body, '\nRead [FORMS.md](references/FORMS.md) for forms.\n');
    assert.equal((await host.read(skill, 'references/FORMS.md')).text, FORMS_MD);
    assert.deepEqual(reads, [SKILL_URI, FORMS_URI]);
    await assert.rejects(host.read(skill, 'references/MISSING.md'), { reason: 'unlisted' });
    assert.equal(reads.length, 2, 'an unlisted file is refused before any request');
    await client.close();
  });

  test(`${era}: resources/directory/read lists direct children; a file is -32602 (S26-SKILL-5)`, async () => {
    const { client, host } = await connect(era);
    assert.equal(host.hasDirectoryRead, true);
    assert.deepEqual(await host.readDirectory('skill://pdf-processing'), [
      {
        uri: 'skill://pdf-processing/SKILL.md',
        name: 'SKILL.md',
        mimeType: 'text/markdown',
        size: Buffer.byteLength(SKILL_MD),
      },
      { uri: 'skill://pdf-processing/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    await assert.rejects(
      client.request('resources/directory/read', { uri: SKILL_URI }),
      (error: unknown) => error instanceof RpcError && error.code === -32602,
    );
    await client.close();
  });
}

test('tampered reads are refused: body (digest), extra bytes (size), frontmatter with a matching digest', async () => {
  const cases = [
    { reason: 'digest', tamper: (text: string) => text.replace('forms.', 'forms!') },
    { reason: 'size', tamper: (text: string) => `${text}more` },
  ] as const;
  for (const { reason, tamper } of cases) {
    const { client, host } = await connect('auto', { tamper });
    const skill = await host.get(SKILL_URI);
    await assert.rejects(
      host.read(skill),
      (error: unknown) => error instanceof SkillVerificationError && error.reason === reason,
    );
    await client.close();
  }
  // The server's entry and file agree byte for byte, but the entry's frontmatter says something else.
  const { client, host } = await connect('auto');
  const skill = await host.get(SKILL_URI);
  const forged = { ...skill, frontmatter: { ...skill.frontmatter, description: 'Something else.' } };
  await assert.rejects(host.read(forged), { reason: 'frontmatter', message: /"description"/ });
  await client.close();
});

test('without directoryRead: refused locally by a client that knows the method, by the gate (-32601) on the server', async () => {
  const { client, host, server } = await connect('auto', { directoryRead: false });
  assert.equal(host.hasDirectoryRead, false);
  // The client's table has the extension's row, so the gate is checked before sending (LIFE-11).
  await assert.rejects(
    client.request('resources/directory/read', { uri: 'skill://pdf-processing' }),
    CapabilityNotNegotiatedError,
  );
  await client.close();
  // A client without the extension sends it unchecked; the server's inbound check refuses it.
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const plain = new Client({ name: 'plain-host', version: '1' }, { eraCache: false });
  await plain.connect(clientEnd);
  await assert.rejects(
    plain.request('resources/directory/read', { uri: 'skill://pdf-processing' }),
    (error: unknown) =>
      error instanceof RpcError && error.code === -32601 && /directoryRead/.test(error.message),
  );
  await plain.close();
});

test('invalid skills are refused at construction, every problem named', () => {
  assert.throws(
    () =>
      skills({
        'wrong-folder/SKILL.md': '---\nname: other\ndescription: x\n---\n',
        'no-front/SKILL.md': 'just text',
        'no-description/SKILL.md': '---\nname: no-description\n---\n',
      }),
    (error: Error) =>
      /must equal the folder name "wrong-folder"/.test(error.message) &&
      /no-front\/SKILL.md: no frontmatter/.test(error.message) &&
      /no-description\/SKILL.md: frontmatter needs a non-empty description/.test(error.message),
  );
});

test('a server without the extension: SkillsClient lists nothing and skills/list is -32601', async () => {
  const server = new Server({ name: 'plain', version: '1' });
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client({ name: 'host', version: '1' }, { eraCache: false });
  await client.connect(clientEnd);
  assert.deepEqual(await new SkillsClient(client).list(), []);
  await assert.rejects(
    client.request('skills/list', {}),
    (error: unknown) => error instanceof RpcError && error.code === -32601,
  );
  await client.close();
});
