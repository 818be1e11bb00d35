// The official v2 client as the stateless-era tours use it over stdio and over HTTP: automatic version
// negotiation, input handlers that record what they were asked, arrivals of logs and list changes, and
// the two tours both transports run the same way (every tool; every input_required fixture).

import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';

import { Client } from '@modelcontextprotocol/client';

import type { Progress } from 'mcpwire/client';
import type { CallToolResult, LoggingMessageNotificationParams } from 'mcpwire';
import { Arrivals } from './arrivals.ts';
import { INPUT_FIXTURES, LOG_LEVEL_KEY } from './stateless-expectations.ts';
import { assertInputRounds, toPlainResult } from './stateless-results.ts';
import {
  answerElicitation,
  answerSampling,
  CLIENT_ROOTS,
  firstText,
  textResult,
} from './our-everything-expectations.ts';
import { DEDICATED_TOOLS, TOOL_CASES } from './our-everything-tool-cases.ts';
import { SdkStatelessWireTap } from './sdk-stateless-wire-tap.ts';

/** The server the tours expect (its name is stripped from results with the stateless-era envelope). */
export const SERVER_NAME = 'mcpwire-everything';

/** A v2 client with `mode: 'auto'` negotiation and recording handlers; connect it through `tap.attach`. */
export class StatelessV2Peer {
  readonly tap = new SdkStatelessWireTap();
  readonly logs = new Arrivals<LoggingMessageNotificationParams>();
  readonly toolListChanges = new Arrivals<true>();
  readonly promptListChanges = new Arrivals<true>();
  readonly elicitationMessages: string[] = [];
  readonly samplingPrompts: string[] = [];
  readonly clientErrors: Error[] = [];
  readonly client: Client;

  constructor(name: string) {
    // `mode: 'auto'` probes with `server/discover` and speaks 2026-07-28 when the server offers it.
    const client = new Client(
      { name, version: '2.0.0' },
      {
        versionNegotiation: { mode: 'auto' },
        capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} },
      },
    );
    // In the stateless era the SDK answers `input_required` results through these same handlers, then retries.
    client.setRequestHandler('elicitation/create', (request) => {
      this.elicitationMessages.push(request.params.message);
      return answerElicitation(request.params);
    });
    client.setRequestHandler('sampling/createMessage', (request) => {
      this.samplingPrompts.push(firstText(request.params.messages[0]?.content));
      return answerSampling();
    });
    client.setRequestHandler('roots/list', () => ({ roots: CLIENT_ROOTS }));
    client.setNotificationHandler('notifications/message', (notification) =>
      this.logs.push(notification.params as LoggingMessageNotificationParams),
    );
    client.setNotificationHandler('notifications/tools/list_changed', () => this.toolListChanges.push(true));
    client.setNotificationHandler('notifications/prompts/list_changed', () =>
      this.promptListChanges.push(true),
    );
    client.onerror = (error) => this.clientErrors.push(error);
    this.client = client;
  }

  /** One tool call with the per-request log level (S26-LOG-1), its result without the stateless-era envelope. */
  readonly callTool = async (
    name: string,
    args: Record<string, unknown>,
    options: { logLevel?: string; progress?: Progress[] } = {},
  ): Promise<CallToolResult> => {
    const { logLevel, progress } = options;
    const result = await this.client.callTool(
      { name, arguments: args, ...(logLevel === undefined ? {} : { _meta: { [LOG_LEVEL_KEY]: logLevel } }) },
      progress === undefined ? {} : { onprogress: (update) => progress.push(update as Progress) },
    );
    return toPlainResult(result as CallToolResult, SERVER_NAME);
  };

  /** Lists every tool and calls each with its case; state-changing tools and input fixtures have their own tests. */
  async tourTools(t: TestContext): Promise<void> {
    const { tools } = await this.client.listTools();
    const listed = tools.map((tool) => tool.name);
    for (const name of listed) {
      if (DEDICATED_TOOLS.includes(name) || name in INPUT_FIXTURES) continue;
      await t.test(name, async () => {
        const toolCase = TOOL_CASES[name];
        assert.ok(toolCase, `no case in our-everything-tool-cases.ts for the listed tool "${name}"`);
        this.logs.clear();
        const progress: Progress[] = [];
        // Every level, so the logging cases see their messages: only requests that ask get any (S26-LOG-1).
        const result = await this.callTool(name, toolCase.arguments, { logLevel: 'debug', progress });
        await toolCase.check(result, { progress, logs: this.logs });
      });
    }
    assert.deepEqual(
      Object.keys(TOOL_CASES).filter((name) => !listed.includes(name)),
      [],
      'every case names a listed tool',
    );
  }

  /** Every input_required fixture: answered by the client's handlers and retried, round by round, until complete. */
  async tourInputRounds(t: TestContext): Promise<void> {
    for (const [name, { rounds, text }] of Object.entries(INPUT_FIXTURES)) {
      await t.test(name, async () => {
        const mark = this.tap.log.mark;
        assert.deepEqual(await this.callTool(name, {}), textResult(text));
        assertInputRounds(this.tap.log.callsOf(name, mark), rounds);
      });
    }
    assert.ok(
      this.elicitationMessages.includes('Step 2: pick a size'),
      JSON.stringify(this.elicitationMessages),
    );
    assert.ok(
      this.samplingPrompts.includes('What is the capital of France?'),
      JSON.stringify(this.samplingPrompts),
    );
  }
}
