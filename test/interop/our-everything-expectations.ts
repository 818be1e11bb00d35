// What our reference server (`mcpwire serve everything`) must give any conforming client: its resources,
// prompts and completions, and the answers the client gives to its sampling, elicitation and roots requests.
// Shared by the tests that drive it with the official v1 and v2 clients (tools: our-everything-tool-cases.ts).

import assert from 'node:assert/strict';

import type { Progress } from 'mcpwire/client';
import type {
  CallToolResult,
  CompleteRequestParams,
  ContentBlock,
  CreateMessageResult,
  ElicitResult,
  GetPromptResult,
  ReadResourceResult,
  Root,
} from 'mcpwire';

/** The text every sampling request is answered with. */
export const SAMPLED_TEXT = 'The answer is forty-two.';

/** The roots the client exposes. */
export const CLIENT_ROOTS: Root[] = [
  { uri: 'file:///work/interop-project', name: 'interop-project' },
  { uri: 'file:///tmp/interop-scratch' },
];

/** The message `test_elicitation` is called with (it forwards it to the user). */
export const ELICITATION_MESSAGE = 'Who is calling the interop test?';

/** The first bytes of every PNG file. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The form answers the client gives, by the elicitation message the server shows. */
export const ELICITATION_ANSWERS: Record<string, ElicitResult['content']> = {
  [ELICITATION_MESSAGE]: { username: 'ada', email: 'ada@example.com' },
  // SEP-1034: every field answered with a value that differs from its default, so the echo proves it travelled.
  'Please review and update the form fields with defaults': {
    name: 'Ada Lovelace',
    age: 36,
    score: 99.5,
    status: 'pending',
    verified: false,
  },
  // SEP-1330: one answer per enum shape, single and multi select.
  'Please select options from the enum fields': {
    untitledSingle: 'option2',
    titledSingle: 'value3',
    legacyEnum: 'opt1',
    untitledMulti: ['option1', 'option3'],
    titledMulti: ['value2'],
  },
  'Proceed with the operation?': { confirm: true },
  // The multi-round-trip fixtures, which in the handshake era send ordinary elicitation requests.
  'What is your name?': { name: 'Ada' },
  'Please confirm': { ok: true },
  'Step 1: pick a colour': { colour: 'teal' },
  'Step 2: pick a size': { size: 'large' },
  'What should the prompt be about?': { context: 'interop testing' },
};

/** The sampling handler of the fake host: always the same answer, from a named fake model. */
export function answerSampling(): CreateMessageResult {
  return {
    role: 'assistant',
    model: 'interop-fake-model',
    content: { type: 'text', text: SAMPLED_TEXT },
    stopReason: 'endTurn',
  };
}

/** What a sampling request's first message says: its text, or its JSON for other content. */
export function firstText(content: unknown): string {
  const block = Array.isArray(content) ? (content as unknown[])[0] : content;
  const record = typeof block === 'object' && block !== null ? (block as Record<string, unknown>) : {};
  return record.type === 'text' && typeof record.text === 'string' ? record.text : JSON.stringify(content);
}

/** The elicitation handler of the fake host: accepts known forms with fixed answers, declines anything else. */
export function answerElicitation(params: { message: string }): ElicitResult {
  const content = ELICITATION_ANSWERS[params.message];
  return content === undefined ? { action: 'decline' } : { action: 'accept', content };
}

/** Every resource our everything server lists, by URI, with the check on what `resources/read` returns. */
export const RESOURCE_CASES: Record<string, (result: ReadResourceResult) => void> = {
  'test://static-text': (result) =>
    assert.deepEqual(result.contents, [
      {
        uri: 'test://static-text',
        mimeType: 'text/plain',
        text: 'This is the content of the static text resource.',
      },
    ]),
  'test://static-binary': (result) => {
    const [contents, ...rest] = result.contents;
    assert.equal(rest.length, 0);
    assert.equal(contents?.uri, 'test://static-binary');
    assert.equal(contents.mimeType, 'image/png');
    assert.ok('blob' in contents, 'a binary resource is read as a blob');
    assert.deepEqual(Buffer.from(contents.blob, 'base64').subarray(0, 8), PNG_SIGNATURE);
  },
  'test://watched-resource': (result) => {
    const [contents] = result.contents;
    assert.equal(contents?.uri, 'test://watched-resource');
    assert.ok('text' in contents);
    assert.match(contents.text, /^Watched resource content/);
  },
  // The skills extension's files (SEP-2640) are ordinary resources.
  'skill://pdf-processing/SKILL.md': skillFileCase(
    'skill://pdf-processing/SKILL.md',
    'text/markdown',
    /^---\nname: pdf-processing\n/,
  ),
  'skill://pdf-processing/references/FORMS.md': skillFileCase(
    'skill://pdf-processing/references/FORMS.md',
    'text/markdown',
    /^# Filling PDF forms/,
  ),
  'skill://pdf-processing/scripts/extract.py': skillFileCase(
    'skill://pdf-processing/scripts/extract.py',
    'text/x-python',
    /^import sys/,
  ),
  'skill://release-notes/SKILL.md': skillFileCase(
    'skill://release-notes/SKILL.md',
    'text/markdown',
    /^---\nname: release-notes\n/,
  ),
};

/** The check of one skill file: one text content with its mime type and its opening. */
function skillFileCase(uri: string, mimeType: string, opening: RegExp): (result: ReadResourceResult) => void {
  return (result) => {
    const [contents, ...rest] = result.contents;
    assert.equal(rest.length, 0);
    assert.equal(contents?.uri, uri);
    assert.equal(contents.mimeType, mimeType);
    assert.ok('text' in contents, `${uri} is text`);
    assert.match(contents.text, opening);
  };
}

/** The capabilities our everything server declares, in both eras: every feature, the skills and tasks extensions. */
export const EVERYTHING_CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
  extensions: {
    'io.modelcontextprotocol/skills': { directoryRead: true },
    'io.modelcontextprotocol/tasks': {},
  },
};

/** What the handshake era (2025-11-25) adds: the core tasks capability (TASK-1); never in `server/discover`. */
export const EVERYTHING_HANDSHAKE_CAPABILITIES = {
  ...EVERYTHING_CAPABILITIES,
  tasks: { cancel: {}, requests: { tools: { call: {} } }, list: {} },
};

/** The one template, a URI it expands to, and the check on reading that URI. */
export const TEMPLATE_CASE = {
  uriTemplate: 'test://template/{id}/data',
  uri: 'test://template/789/data',
  check(result: ReadResourceResult): void {
    const [contents, ...rest] = result.contents;
    assert.equal(rest.length, 0);
    assert.equal(contents?.uri, 'test://template/789/data');
    assert.equal(contents.mimeType, 'application/json');
    assert.ok('text' in contents);
    assert.deepEqual(JSON.parse(contents.text), { id: '789', templateTest: true, data: 'Data for ID: 789' });
  },
};

/** How to get one prompt and what it must return. */
export interface PromptCase {
  arguments?: Record<string, string>;
  check(result: GetPromptResult): void;
}

/** Every prompt our everything server lists at start. */
export const PROMPT_CASES: Record<string, PromptCase> = {
  test_simple_prompt: {
    check: (result) =>
      assert.deepEqual(result.messages, [
        { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
      ]),
  },
  test_prompt_with_arguments: {
    arguments: { arg1: 'alpha', arg2: 'beta gamma' },
    check: (result) =>
      assert.deepEqual(result.messages, [
        {
          role: 'user',
          content: { type: 'text', text: "Prompt with arguments: arg1='alpha', arg2='beta gamma'" },
        },
      ]),
  },
  test_prompt_with_embedded_resource: {
    arguments: { resourceUri: 'test://static-text' },
    check: (result) => {
      const [embedded, instruction] = result.messages;
      assert.equal(embedded?.content.type, 'resource');
      assert.equal(embedded.content.resource.uri, 'test://static-text');
      assert.deepEqual(instruction, {
        role: 'user',
        content: { type: 'text', text: 'Please process the embedded resource above.' },
      });
    },
  },
  test_input_required_result_prompt: {
    check: (result) =>
      assert.deepEqual(result.messages, [
        { role: 'user', content: { type: 'text', text: 'Please help with: interop testing' } },
      ]),
  },
  test_prompt_with_image: {
    check: (result) => {
      const [image, instruction] = result.messages;
      assert.equal(image?.role, 'user');
      assertPngImage(image.content);
      assert.deepEqual(instruction, {
        role: 'user',
        content: { type: 'text', text: 'Please analyze the image above.' },
      });
    },
  },
};

/** Completion requests and the exact values each must return. */
export const COMPLETION_CASES: Array<{ params: CompleteRequestParams; values: string[] }> = [
  {
    params: {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'te' },
    },
    values: ['test', 'testing', 'test-value'],
  },
  {
    params: {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg2', value: 'w' },
      context: { arguments: { arg1: 'test' } },
    },
    values: ['world', 'wide', 'web'],
  },
  {
    params: {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_embedded_resource' },
      argument: { name: 'resourceUri', value: 'test://s' },
    },
    values: ['test://static-text', 'test://static-binary'],
  },
  {
    params: {
      ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
      argument: { name: 'id', value: '1' },
    },
    values: ['123', '1001'],
  },
];

/** A result holding exactly one text block. */
export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/** The text of a result made of exactly one text block. */
export function onlyText(result: CallToolResult): string {
  assert.equal(result.content.length, 1, `expected one content block, got ${JSON.stringify(result.content)}`);
  const [block] = result.content;
  assert.equal(block?.type, 'text');
  return block.text;
}

/** An image block holding a base64 PNG. */
export function assertPngImage(block: ContentBlock | undefined): void {
  assert.equal(block?.type, 'image');
  assert.equal(block.mimeType, 'image/png');
  assert.deepEqual(Buffer.from(block.data, 'base64').subarray(0, 8), PNG_SIGNATURE);
}

/**
 * Progress must arrive in order, increasing, with the expected total: the expected values, except that the
 * last may be missing. The official SDK clients drop a final progress notification that arrives in the same
 * read as the response (modelcontextprotocol/typescript-sdk#2580); our server sends it before the response.
 */
export function assertProgressPrefix(
  received: readonly Progress[],
  expected: readonly number[],
  total: number,
): void {
  const values = received.map((update) => update.progress);
  assert.ok(
    values.length >= expected.length - 1,
    `expected progress ${JSON.stringify(expected)}, got ${JSON.stringify(values)}`,
  );
  assert.deepEqual(values, expected.slice(0, values.length));
  for (const update of received) assert.equal(update.total, total);
}
