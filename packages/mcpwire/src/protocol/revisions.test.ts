import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadSchemaDefinitions, validateAgainstDefinition } from '../../../../test/support/wire-schema.ts';
import {
  adaptContentForRevision,
  adaptToolForRevision,
  hasFeature,
  isKnownVersion,
  isStatelessVersion,
  HANDSHAKE_VERSIONS,
  STATELESS_VERSIONS,
  REVISION_FEATURES,
  type RevisionFeature,
} from './revisions.ts';
import type { ContentBlock, Tool } from './types/index.ts';

const ALL_VERSIONS = [...STATELESS_VERSIONS, ...HANDSHAKE_VERSIONS];

test('versions are listed newest first, and stateless-era ones are newer than every handshake-era one', () => {
  assert.deepEqual([...HANDSHAKE_VERSIONS], [...HANDSHAKE_VERSIONS].sort().reverse());
  assert.deepEqual(STATELESS_VERSIONS, ['2026-07-28']);
  for (const handshake of HANDSHAKE_VERSIONS) assert.ok(handshake < STATELESS_VERSIONS[0]);
});

test('isStatelessVersion compares date-shaped strings and rejects anything else', () => {
  assert.equal(isStatelessVersion('2026-07-28'), true);
  assert.equal(isStatelessVersion('2027-01-05'), true, 'an unknown later revision is stateless');
  for (const handshake of HANDSHAKE_VERSIONS) assert.equal(isStatelessVersion(handshake), false);
  for (const bad of ['', 'latest', '2026-7-28', '2026-07-28T00:00', '2026-13-01', '2026-07-32', '9999']) {
    assert.equal(isStatelessVersion(bad), false, bad);
  }
});

test('isKnownVersion accepts exactly the listed revisions', () => {
  for (const version of ALL_VERSIONS) assert.equal(isKnownVersion(version), true);
  for (const other of ['2024-10-07', '2027-01-01', 'DRAFT-2026-v1', ''])
    assert.equal(isKnownVersion(other), false);
});

test('hasFeature follows the table, including removed features and unknown versions', () => {
  const has = (feature: RevisionFeature) =>
    ALL_VERSIONS.filter((version) => hasFeature(version, feature)).reverse();
  assert.deepEqual(has('batching'), ['2025-03-26']);
  assert.deepEqual(has('audioContent'), ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']);
  assert.deepEqual(has('resourceLink'), ['2025-06-18', '2025-11-25', '2026-07-28']);
  assert.deepEqual(has('tasks'), ['2025-11-25']);
  assert.deepEqual(has('idlessErrorResponse'), ['2025-11-25', '2026-07-28']);
  assert.equal(hasFeature('2025-09-01', 'title'), true, 'an unknown date sits between known ones');
  assert.equal(hasFeature('2025-09-01', 'icons'), false);
  assert.equal(hasFeature('not-a-date', 'audioContent'), false);
});

/** The fact in each revision's official schema that says whether it has a feature. */
const SCHEMA_FACTS: Record<RevisionFeature, (definitions: Definitions) => boolean> = {
  batching: (d) => 'JSONRPCBatchRequest' in d,
  audioContent: (d) => 'AudioContent' in d,
  toolAnnotations: (d) => hasProperty(d.Tool, 'annotations'),
  completionsCapability: (d) => hasProperty(d.ServerCapabilities, 'completions'),
  progressMessage: (d) => hasProperty(paramsOf(d, 'ProgressNotification'), 'message'),
  title: (d) => 'BaseMetadata' in d && hasProperty(d.Tool, 'title'),
  structuredContent: (d) =>
    hasProperty(d.CallToolResult, 'structuredContent') && hasProperty(d.Tool, 'outputSchema'),
  resourceLink: (d) => 'ResourceLink' in d,
  elicitation: (d) => 'ElicitRequest' in d,
  completionContext: (d) => hasProperty(paramsOf(d, 'CompleteRequest'), 'context'),
  icons: (d) => 'Icon' in d && hasProperty(d.Tool, 'icons'),
  samplingTools: (d) => 'ToolUseContent' in d && hasProperty(paramsOf(d, 'CreateMessageRequest'), 'tools'),
  elicitationUrl: (d) => 'ElicitRequestURLParams' in d,
  tasks: (d) => 'Task' in d && 'CreateTaskResult' in d,
  implementationDescription: (d) => hasProperty(d.Implementation, 'description'),
  idlessErrorResponse: (d) => {
    const error = d.JSONRPCErrorResponse ?? d.JSONRPCError;
    return Array.isArray(error?.required) && !error.required.includes('id');
  },
};

test('every REVISION_FEATURES entry matches the official schema of every revision', () => {
  assert.deepEqual(Object.keys(SCHEMA_FACTS).sort(), Object.keys(REVISION_FEATURES).sort());
  for (const version of ALL_VERSIONS) {
    const definitions = loadSchemaDefinitions(version);
    for (const feature of Object.keys(REVISION_FEATURES) as RevisionFeature[]) {
      assert.equal(
        hasFeature(version, feature),
        SCHEMA_FACTS[feature](definitions),
        `${feature} in ${version}`,
      );
    }
  }
});

const link: ContentBlock = {
  type: 'resource_link',
  uri: 'file:///project/README.md',
  name: 'readme',
  title: 'Project README',
  description: 'How to build',
  mimeType: 'text/markdown',
  annotations: { audience: ['user'], priority: 0.5 },
};
const audio: ContentBlock = {
  type: 'audio',
  data: 'UklGRg==',
  mimeType: 'audio/wav',
  _meta: { 'example.com/x': 1 },
};

test('adaptContentForRevision replaces resource_link before 2025-06-18 with text naming the link', () => {
  for (const version of ['2024-11-05', '2025-03-26']) {
    const adapted = adaptContentForRevision(link, version);
    assert.deepEqual(adapted, {
      type: 'text',
      text: 'Resource link "Project README" <file:///project/README.md>: How to build',
      annotations: { audience: ['user'], priority: 0.5 },
    });
  }
  for (const version of ['2025-06-18', '2025-11-25', '2026-07-28'])
    assert.equal(adaptContentForRevision(link, version), link);
  const untitled = adaptContentForRevision(
    { type: 'resource_link', uri: 'file:///a', name: 'a' },
    '2025-03-26',
  );
  assert.deepEqual(untitled, { type: 'text', text: 'Resource link "a" <file:///a>' });
});

test('adaptContentForRevision replaces audio in 2024-11-05 with text saying it was omitted', () => {
  const adapted = adaptContentForRevision(audio, '2024-11-05');
  assert.equal(adapted.type, 'text');
  assert.match(adapted.type === 'text' ? adapted.text : '', /audio\/wav.*omitted.*2024-11-05/i);
  assert.equal('_meta' in adapted, false);
  for (const version of ['2025-03-26', '2025-06-18', '2025-11-25'])
    assert.equal(adaptContentForRevision(audio, version), audio);
});

test('adapted blocks are valid tool-result content in every handshake-era revision; unadapted ones are not', () => {
  const blocks: ContentBlock[] = [
    link,
    audio,
    { type: 'text', text: 'hi' },
    { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
  ];
  for (const version of HANDSHAKE_VERSIONS) {
    for (const block of blocks) {
      const outcome = validateAgainstDefinition(version, 'CallToolResult', {
        content: [adaptContentForRevision(block, version)],
      });
      assert.deepEqual(outcome.errors, [], `${block.type} in ${version}`);
    }
  }
  assert.equal(validateAgainstDefinition('2025-03-26', 'CallToolResult', { content: [link] }).valid, false);
  assert.equal(validateAgainstDefinition('2024-11-05', 'CallToolResult', { content: [audio] }).valid, false);
});

test('adaptToolForRevision returns the tool: a tool using every field is valid in every revision', () => {
  const tool: Tool = {
    name: 'get_weather',
    title: 'Weather',
    description: 'Current weather',
    icons: [{ src: 'https://example.com/sun.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'light' }],
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
    outputSchema: { type: 'object', properties: { celsius: { type: 'number' } } },
    annotations: { title: 'Weather', readOnlyHint: true, openWorldHint: true },
    execution: { taskSupport: 'optional' },
    _meta: { 'example.com/owner': 'weather-team' },
  };
  for (const version of ALL_VERSIONS) {
    const adapted = adaptToolForRevision(tool, version);
    assert.equal(adapted, tool);
    assert.deepEqual(validateAgainstDefinition(version, 'Tool', adapted).errors, [], version);
  }
});

type Definitions = Readonly<Record<string, Record<string, unknown>>>;

function hasProperty(definition: Record<string, unknown> | undefined, name: string): boolean {
  const properties = definition?.properties;
  return typeof properties === 'object' && properties !== null && name in properties;
}

/** The params schema of a request or notification, whether inline (older revisions) or a `$ref`. */
function paramsOf(definitions: Definitions, name: string): Record<string, unknown> | undefined {
  const params = (definitions[name]?.properties as Record<string, Record<string, unknown>> | undefined)
    ?.params;
  const ref = params?.$ref;
  return typeof ref === 'string' ? definitions[ref.slice(ref.lastIndexOf('/') + 1)] : params;
}
