// What each tool of the official `@modelcontextprotocol/server-everything` (2026.8.31) returns to a client
// that declares sampling, elicitation (form and url) and roots: valid arguments per tool, derived from its
// inputSchema, and the checks on the result and on what the client saw meanwhile.

import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';

import type { Client } from 'mcpwire/client';
import type { Progress } from 'mcpwire/client';
import type {
  CallToolResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  LoggingMessageNotificationParams,
  Root,
} from 'mcpwire';
import type { Arrivals } from './arrivals.ts';
import { assertPngImage, onlyText } from './our-everything-expectations.ts';

/** The roots our client serves. */
export const HOST_ROOTS: Root[] = [{ uri: 'file:///work/interop-project', name: 'interop-project' }];

/** What our client's model answers every sampling request with. */
export const HOST_SAMPLED_TEXT = 'Sampled by the mcpwire client.';

const GZIP_TEXT = 'mcpwire compresses nothing itself; server-everything does.';

/** The sampling handler of the fake host. */
export function answerSampling(): CreateMessageResult {
  return {
    role: 'assistant',
    model: 'interop-fake-model',
    content: { type: 'text', text: HOST_SAMPLED_TEXT },
    stopReason: 'endTurn',
  };
}

/**
 * The elicitation handler of the fake host: accepts URLs, and fills only some form fields so the client
 * completes the rest from the schema's defaults (SEP-1034, ELIC-6).
 */
export function answerElicitation(params: ElicitRequestParams): ElicitResult {
  if (params.mode === 'url') return { action: 'accept' };
  return { action: 'accept', content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com' } };
}

/** What a check may use: the client, and what it saw while connected. */
export interface CallContext {
  client: Client;
  /** Progress of this call, in order. */
  progress: Progress[];
  logs: Arrivals<LoggingMessageNotificationParams>;
  updatedUris: Arrivals<string>;
  resourceListChanges: Arrivals<true>;
  samplingRequests: readonly CreateMessageRequestParams[];
  elicitationRequests: readonly ElicitRequestParams[];
}

/** How to call one server-everything tool and what its result must be. */
export interface EverythingToolCase {
  arguments: Record<string, unknown>;
  check(result: CallToolResult, call: CallContext): void | Promise<void>;
}

/** Every tool server-everything lists for a client that declares sampling, elicitation and roots (no tasks). */
export const SERVER_EVERYTHING_TOOL_CASES: Record<string, EverythingToolCase> = {
  echo: {
    arguments: { message: 'hello from mcpwire' },
    check: (result) => assert.equal(onlyText(result), 'Echo: hello from mcpwire'),
  },
  'get-annotated-message': {
    arguments: { messageType: 'error', includeImage: true },
    check: (result) => {
      const [text, image] = result.content;
      assert.deepEqual(text, {
        type: 'text',
        text: 'Error: Operation failed',
        annotations: { priority: 1, audience: ['user', 'assistant'] },
      });
      assertPngImage(image);
      assert.deepEqual(image?.annotations, { priority: 0.5, audience: ['user'] });
    },
  },
  'get-env': {
    arguments: {},
    check: (result) => {
      const env = JSON.parse(onlyText(result)) as Record<string, string>;
      assert.equal(env.INTEROP_MARKER, 'set-by-the-interop-test');
    },
  },
  'get-resource-links': {
    arguments: { count: 4 },
    check: async (result, call) => {
      const [intro, ...links] = result.content;
      assert.deepEqual(intro, {
        type: 'text',
        text: 'Here are 4 resource links to resources available in this server:',
      });
      assert.equal(links.length, 4);
      for (const link of links) {
        assert.equal(link.type, 'resource_link');
        // Every link must be readable.
        const read = await call.client.readResource({ uri: link.uri });
        assert.equal(read.contents[0]?.uri, link.uri);
      }
    },
  },
  'get-resource-reference': {
    arguments: { resourceType: 'Blob', resourceId: 3 },
    check: (result) => {
      const [, embedded] = result.content;
      assert.equal(embedded?.type, 'resource');
      assert.equal(embedded.resource.uri, 'demo://resource/dynamic/blob/3');
      assert.ok('blob' in embedded.resource);
      assert.match(
        Buffer.from(embedded.resource.blob, 'base64').toString('utf8'),
        /^Resource 3: This is a base64 blob/,
      );
    },
  },
  'get-structured-content': {
    arguments: { location: 'Chicago' },
    // Our client checked structuredContent against the tool's outputSchema before returning (TOOL-3).
    check: (result) =>
      assert.deepEqual(result.structuredContent, {
        temperature: 36,
        conditions: 'Light rain / drizzle',
        humidity: 82,
      }),
  },
  'get-sum': {
    arguments: { a: 19, b: 23 },
    check: (result) => assert.equal(onlyText(result), 'The sum of 19 and 23 is 42.'),
  },
  'get-tiny-image': {
    arguments: {},
    check: (result) => {
      assert.equal(result.content.length, 3);
      assertPngImage(result.content[1]);
    },
  },
  'gzip-file-as-resource': {
    // A data: URI, so the server fetches nothing from the network.
    arguments: {
      name: 'interop.txt.gz',
      data: `data:text/plain;base64,${Buffer.from(GZIP_TEXT).toString('base64')}`,
      outputType: 'resourceLink',
    },
    check: async (result, call) => {
      const [link] = result.content;
      assert.equal(link?.type, 'resource_link');
      assert.equal(link.uri, 'demo://resource/session/interop.txt.gz');
      // The tool registered a new resource: the server announced it, and it reads back as the gzipped text.
      await call.resourceListChanges.waitFor('notifications/resources/list_changed');
      const [contents] = (await call.client.readResource({ uri: link.uri })).contents;
      assert.ok(contents && 'blob' in contents);
      assert.equal(gunzipSync(Buffer.from(contents.blob, 'base64')).toString('utf8'), GZIP_TEXT);
    },
  },
  'toggle-simulated-logging': {
    arguments: {},
    check: async (result, call) => {
      assert.match(onlyText(result), /^Started simulated, random-leveled logging/);
      // One message is sent at once, at a random level; the next only after 5 s, so switch it off again.
      const log = await call.logs.waitFor('a simulated log message', (entry) =>
        /level[ -]message/i.test(String(entry.data)),
      );
      assert.ok(
        ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].includes(log.level),
      );
      const stopped = await call.client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
      assert.match(onlyText(stopped), /^Stopped simulated logging/);
    },
  },
  'toggle-subscriber-updates': {
    arguments: {},
    check: async (result, call) => {
      assert.match(onlyText(result), /^Started simulated resource updated notifications/);
      // The subscription was made before the call (see the tour); one update is sent at once.
      assert.equal(
        await call.updatedUris.waitFor('a simulated resources/updated'),
        'demo://resource/dynamic/text/1',
      );
      const stopped = await call.client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
      assert.match(onlyText(stopped), /^Stopped simulated resource updates/);
    },
  },
  'trigger-long-running-operation': {
    arguments: { duration: 0.3, steps: 3 },
    check: (result, call) => {
      assert.equal(onlyText(result), 'Long running operation completed. Duration: 0.3 seconds, Steps: 3.');
      // Our client delivers every progress notification that precedes the response, in order.
      assert.deepEqual(call.progress, [
        { progress: 1, total: 3 },
        { progress: 2, total: 3 },
        { progress: 3, total: 3 },
      ]);
    },
  },
  'get-roots-list': {
    arguments: {},
    check: (result) =>
      assert.match(
        onlyText(result),
        /^Current MCP Roots \(1 total\):\n\n1\. interop-project\n {3}URI: file:\/\/\/work\/interop-project\n/,
      ),
  },
  'trigger-elicitation-request': {
    arguments: {},
    check: (result) => {
      const raw = result.content.at(-1);
      assert.equal(raw?.type, 'text');
      const answered = JSON.parse(raw.text.replace(/^\s*Raw result: /, '')) as ElicitResult;
      assert.equal(answered.action, 'accept');
      // What the user typed, completed with every default of the form (SEP-1034).
      assert.deepEqual(answered.content, {
        name: 'Ada Lovelace',
        check: true,
        email: 'ada@example.com',
        firstLine: 'It was a dark and stormy night.',
        integer: 42,
        number: 3.14,
        untitledSingleSelectEnum: 'Monica',
        untitledMultipleSelectEnum: ['Guitar'],
        titledSingleSelectEnum: 'hero-1',
        titledMultipleSelectEnum: ['fish-1'],
        legacyTitledEnum: 'pet-1',
      });
    },
  },
  'trigger-url-elicitation': {
    arguments: { url: 'https://example.com/authorize' },
    check: (result, call) => {
      const request = call.elicitationRequests.at(-1);
      assert.equal(request?.mode, 'url');
      assert.equal(request.url, 'https://example.com/authorize');
      assert.equal(result.content[0]?.type, 'text');
      assert.equal(
        result.content[0].text,
        `✅ User completed the URL elicitation flow.\nElicitation ID: ${request.elicitationId}\nURL: https://example.com/authorize`,
      );
    },
  },
  'trigger-sampling-request': {
    arguments: { prompt: 'Say something', maxTokens: 50 },
    check: (result, call) => {
      const request = call.samplingRequests.at(-1);
      assert.equal(request?.maxTokens, 50);
      assert.equal(request.systemPrompt, 'You are a helpful test server.');
      const answer = JSON.parse(
        onlyText(result).replace(/^LLM sampling result: \n/, ''),
      ) as CreateMessageResult;
      assert.deepEqual(answer.content, { type: 'text', text: HOST_SAMPLED_TEXT });
      assert.equal(answer.model, 'interop-fake-model');
    },
  },
  'simulate-research-query': {
    // Declared with taskSupport "required": called plainly it must fail as a tool error, which names the reason.
    arguments: { topic: 'interop' },
    check: (result) => {
      assert.equal(result.isError, true);
      assert.match(onlyText(result), /requires task augmentation/);
    },
  },
};
