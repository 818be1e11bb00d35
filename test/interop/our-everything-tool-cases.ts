// What each tool of our reference server (`mcpwire serve everything`) must return to any conforming client:
// the arguments to call it with and the checks on its result and on what the client saw meanwhile.

import assert from 'node:assert/strict';

import type { Progress } from 'mcpwire/client';
import type { CallToolResult, LoggingMessageNotificationParams } from 'mcpwire';
import type { Arrivals } from './arrivals.ts';
import {
  assertPngImage,
  assertProgressPrefix,
  CLIENT_ROOTS,
  ELICITATION_ANSWERS,
  ELICITATION_MESSAGE,
  onlyText,
  SAMPLED_TEXT,
  textResult,
} from './our-everything-expectations.ts';

/** How `CLIENT_ROOTS` read in the text of the input-request fixtures. */
const ROOT_URIS = CLIENT_ROOTS.map((root) => root.uri).join(', ');

/** What the client saw while one tool call ran. */
export interface Observed {
  /** `onprogress` calls for this call, in order. */
  progress: Progress[];
  /** Log notifications since the call started. */
  logs: Arrivals<LoggingMessageNotificationParams>;
}

/** How to call one tool and what its result must be. */
export interface ToolCase {
  arguments: Record<string, unknown>;
  check(result: CallToolResult, observed: Observed): void | Promise<void>;
}

/**
 * Tools with a test of their own in every file (they change server state: tool and prompt lists, a
 * watched resource), so the tour over all tools leaves them out.
 */
export const DEDICATED_TOOLS = [
  'test_trigger_tool_change',
  'test_trigger_prompt_change',
  'test_update_watched_resource',
  // The task fixtures that need a task or end in a protocol error without one: the tasks tests
  // (packages/mcpwire/src/extensions/tasks, the conformance suite's tasks-* scenarios) cover them.
  'failing_job',
  'protocol_error_job',
  'test_tool_with_task',
  // The cancellation fixture: the first answers only when cancelled, the second only once that was
  // seen; packages/redis/test/interop-proxy.test.ts cancels through the nodes with each client.
  'test_wait_for_cancel',
  'test_cancellation_seen',
];

/** Every other tool our everything server lists, in listing order. */
export const TOOL_CASES: Record<string, ToolCase> = {
  echo: {
    arguments: { message: 'hello over stdio' },
    check: (result) => assert.deepEqual(result, textResult('hello over stdio')),
  },
  test_simple_text: {
    arguments: {},
    check: (result) => assert.deepEqual(result, textResult('This is a simple text response for testing.')),
  },
  test_image_content: {
    arguments: {},
    check: (result) => {
      const [image, ...rest] = result.content;
      assert.equal(rest.length, 0);
      assertPngImage(image);
    },
  },
  test_audio_content: {
    arguments: {},
    check: (result) => {
      const [audio] = result.content;
      assert.equal(audio?.type, 'audio');
      assert.equal(audio.mimeType, 'audio/wav');
      assert.equal(Buffer.from(audio.data, 'base64').subarray(0, 4).toString('latin1'), 'RIFF');
    },
  },
  test_embedded_resource: {
    arguments: {},
    check: (result) =>
      assert.deepEqual(result.content, [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ]),
  },
  test_multiple_content_types: {
    arguments: {},
    check: (result) => {
      const [text, image, resource] = result.content;
      assert.deepEqual(text, { type: 'text', text: 'Multiple content types test:' });
      assertPngImage(image);
      assert.equal(resource?.type, 'resource');
      assert.equal(resource.resource.uri, 'test://mixed-content-resource');
      assert.ok('text' in resource.resource);
      assert.deepEqual(JSON.parse(resource.resource.text), { test: 'data', value: 123 });
    },
  },
  test_resource_links: {
    arguments: {},
    check: (result) => {
      const links = result.content.filter((block) => block.type === 'resource_link');
      assert.deepEqual(
        links.map((link) => [link.uri, link.name, link.mimeType]),
        [
          ['test://static-text', 'static-text', 'text/plain'],
          ['test://static-binary', 'static-binary', 'image/png'],
        ],
      );
    },
  },
  test_error_handling: {
    arguments: {},
    check: (result) => {
      assert.equal(result.isError, true);
      assert.deepEqual(result.content, [
        { type: 'text', text: 'This tool intentionally returns an error for testing' },
      ]);
    },
  },
  add_numbers: {
    arguments: { a: 19, b: 23 },
    check: (result) => {
      assert.deepEqual(result.structuredContent, { sum: 42 });
      assert.deepEqual(result.content, [{ type: 'text', text: '42' }]);
    },
  },
  get_weather: {
    arguments: { city: 'Oslo' },
    check: (result) => {
      const weather = result.structuredContent;
      assert.equal(weather?.city, 'Oslo');
      assert.ok(['sunny', 'cloudy', 'rainy', 'snowy'].includes(String(weather.conditions)));
      // TOOL-5: structured output is mirrored as a text block for clients that only read content.
      assert.deepEqual(result.content, [{ type: 'text', text: JSON.stringify(weather) }]);
    },
  },
  delete_note: {
    arguments: { id: 'note-7' },
    check: (result) =>
      assert.deepEqual(result, textResult('Note note-7 would be deleted (dry run: nothing was changed).')),
  },
  json_schema_2020_12_tool: {
    arguments: { name: 'Ada', contactMethod: 'email', email: 'ada@example.com' },
    check: (result) =>
      assert.deepEqual(
        result,
        textResult(
          'JSON Schema 2020-12 tool called with: {"name":"Ada","contactMethod":"email","email":"ada@example.com"}',
        ),
      ),
  },
  test_custom_header: {
    arguments: { region: 'eu-north' },
    check: (result) => assert.deepEqual(result, textResult('Region: eu-north')),
  },
  test_tool_with_logging: {
    arguments: {},
    check: async (result, observed) => {
      assert.deepEqual(result, textResult('Tool with logging executed successfully'));
      await observed.logs.waitFor(
        'the last log of test_tool_with_logging',
        (log) => log.data === 'Tool execution completed',
      );
      const info = observed.logs.items.filter((log) => log.level === 'info');
      assert.deepEqual(
        info.map((log) => [log.logger, log.data]),
        [
          ['everything', 'Tool execution started'],
          ['everything', 'Tool processing data'],
          ['everything', 'Tool execution completed'],
        ],
      );
    },
  },
  test_logging_tool: {
    arguments: {},
    check: async (result, observed) => {
      assert.deepEqual(result, textResult('Logging tool executed.'));
      const log = await observed.logs.waitFor(
        'the log of test_logging_tool',
        (entry) => entry.data === 'test_logging_tool ran',
      );
      assert.equal(log.level, 'info');
    },
  },
  test_tool_with_progress: {
    arguments: {},
    check: (result, observed) => {
      // The result is the progressToken the client chose, which proves the server read it from _meta.
      const [text] = result.content;
      assert.equal(text?.type, 'text');
      assert.notEqual(text.text, 'Progress tool completed (no progressToken was given).');
      assertProgressPrefix(observed.progress, [0, 50, 100], 100);
    },
  },
  test_tool_slow: {
    arguments: { durationMs: 300 },
    check: (result, observed) => {
      assert.deepEqual(result, textResult('Slept for 300 ms.'));
      assertProgressPrefix(observed.progress, [100, 200, 300], 300);
    },
  },
  test_tool_fast: {
    arguments: {},
    check: (result) => assert.deepEqual(result, textResult('Fast tool completed.')),
  },
  test_reconnection: {
    arguments: {},
    check: (result) => {
      assert.equal(result.isError, undefined);
      assert.match(onlyText(result), /^Reconnection test completed successfully/);
    },
  },
  test_sampling: {
    arguments: { prompt: 'What is six times seven?' },
    check: (result) => assert.deepEqual(result, textResult(`LLM response: ${SAMPLED_TEXT}`)),
  },
  test_missing_capability: {
    // The client declared sampling, so the capability is there and the tool succeeds.
    arguments: {},
    check: (result) => assert.deepEqual(result, textResult(`LLM response: ${SAMPLED_TEXT}`)),
  },
  test_elicitation: {
    arguments: { message: ELICITATION_MESSAGE },
    check: (result) =>
      assert.deepEqual(
        result,
        textResult(
          `User response: action=accept, content=${JSON.stringify(ELICITATION_ANSWERS[ELICITATION_MESSAGE])}`,
        ),
      ),
  },
  test_elicitation_sep1034_defaults: {
    arguments: {},
    check: (result) =>
      assert.deepEqual(
        result,
        textResult(
          `Elicitation completed: action=accept, content=${JSON.stringify(ELICITATION_ANSWERS['Please review and update the form fields with defaults'])}`,
        ),
      ),
  },
  test_elicitation_sep1330_enums: {
    arguments: {},
    check: (result) =>
      assert.deepEqual(
        result,
        textResult(
          `Elicitation completed: action=accept, content=${JSON.stringify(ELICITATION_ANSWERS['Please select options from the enum fields'])}`,
        ),
      ),
  },
  test_streaming_elicitation: {
    arguments: {},
    check: (result) =>
      assert.deepEqual(result, textResult('Received: action=accept, content={"confirm":true}')),
  },
  test_input_required_result_elicitation: {
    arguments: {},
    check: (result) => assert.deepEqual(result, textResult('Hello, Ada!')),
  },
  test_input_required_result_sampling: {
    arguments: {},
    check: (result) => assert.deepEqual(result, textResult(`Model answered: ${SAMPLED_TEXT}`)),
  },
  test_input_required_result_list_roots: {
    arguments: {},
    check: (result) => assert.deepEqual(result, textResult(`Roots: ${ROOT_URIS}`)),
  },
  test_input_required_result_request_state: {
    arguments: {},
    check: (result) =>
      assert.deepEqual(
        result,
        textResult('state-ok: the confirmation came back through the sealed requestState'),
      ),
  },
  test_input_required_result_tampered_state: {
    // Over stdio in the handshake era there is no requestState to tamper with: it behaves like request_state.
    arguments: {},
    check: (result) =>
      assert.deepEqual(
        result,
        textResult('state-ok: the confirmation came back through the sealed requestState'),
      ),
  },
  test_input_required_result_multiple_inputs: {
    arguments: {},
    check: (result) =>
      assert.deepEqual(result, textResult(`Name: Ada; greeting: ${SAMPLED_TEXT}; roots: ${ROOT_URIS}`)),
  },
  test_input_required_result_multi_round: {
    arguments: {},
    check: (result) =>
      assert.deepEqual(result, textResult('Completed both rounds: step1=accept, step2=accept')),
  },
  test_input_required_result_capabilities: {
    // The client declared elicitation, sampling and roots, so all three are asked.
    arguments: {},
    check: (result) => assert.deepEqual(result, textResult(`Answers: Ada; ${SAMPLED_TEXT}; ${ROOT_URIS}`)),
  },
  // The task fixtures, called plainly (no task, no tasks extension): they run at once.
  greet: {
    arguments: { name: 'tour' },
    check: (result) => assert.deepEqual(result, textResult('Hello, tour!')),
  },
  slow_compute: {
    arguments: { seconds: 0, label: 'tour' },
    check: (result) => assert.deepEqual(result, textResult('Computed tour after 0s')),
  },
  confirm_delete: {
    // The host declines messages it has no answer for.
    arguments: { filename: 'tour.txt' },
    check: (result) => assert.deepEqual(result, textResult('Kept tour.txt')),
  },
  multi_input: {
    arguments: {},
    check: (result) => assert.deepEqual(result, textResult('Ada declined')),
  },
  test_list_roots: {
    arguments: {},
    check: (result) => {
      assert.deepEqual(result.structuredContent, { roots: CLIENT_ROOTS });
      assert.equal(
        onlyText(result),
        'Client roots:\nfile:///work/interop-project (interop-project)\nfile:///tmp/interop-scratch',
      );
    },
  },
};
