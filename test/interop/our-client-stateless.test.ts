// Our Client in the stateless era (2026-07-28) over real stdio child processes, with its default era "auto"
// (a `server/discover` probe): against a dual-era server on the official v2 SDK (stateless, and handshake-era through the
// SDK's shim), against a handshake-only server on the official v1 SDK (the probe falls back), and against
// `mcpwire serve everything` (the multi-round-trip fixtures through our handlers, listen, per-request logging).
// Every message our client sends is checked against the official schema of its revision.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';

import { Client, RpcError, type ClientHandlers, type Transport } from 'mcpwire/client';
import type { ElicitRequestParams, ElicitResult, LoggingMessageNotificationParams, Root } from 'mcpwire';
import { StdioClientTransport, type StdioClientChannel } from 'mcpwire/stdio';
import { tapChannel, type ChannelObserver } from 'mcpwire';
import { Arrivals } from './arrivals.ts';
import { ClientWireCheck } from './client-wire-check.ts';
import { ConversationLog, metaOf } from './conversation-log.ts';
import { assertInputRounds, toPlainResult } from './stateless-results.ts';
import {
  answerElicitation,
  answerSampling,
  CLIENT_ROOTS,
  onlyText,
  PROMPT_CASES,
  SAMPLED_TEXT,
  textResult,
} from './our-everything-expectations.ts';
import { CHILD_STARTUP_WAIT } from '../support/node-options.ts';
import { OUR_EVERYTHING_SERVER, REPO_ROOT, StderrTail, type StdioCommand } from './stdio-peers.ts';

const STATELESS = '2026-07-28';
const INFO = { name: 'interop-mcpwire-stateless', version: '0.1.0' };
const ROOT_URIS = CLIENT_ROOTS.map((root) => root.uri).join(', ');
const ENVELOPE = {
  version: 'io.modelcontextprotocol/protocolVersion',
  capabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** The official v2 SDK's dual-era stdio server (`serveStdio`), from test/interop/fixtures. */
const OFFICIAL_V2_SERVER: StdioCommand = {
  command: process.execPath,
  args: [join(REPO_ROOT, 'test', 'interop', 'fixtures', 'official-v2-server.mjs')],
  cwd: REPO_ROOT,
};

/** The official v1 SDK's echo server (handshake era only), shared with the benchmark. */
const OFFICIAL_V1_SERVER: StdioCommand = {
  command: process.execPath,
  args: [join(REPO_ROOT, 'bench', 'servers', 'official-v1-echo.mjs')],
  cwd: REPO_ROOT,
};

/** The user's answers to the v2 fixture's forms; every other form is answered as for our everything server. */
const FIXTURE_ANSWERS: Record<string, ElicitResult['content']> = {
  'Delete branch old?': { confirm: true },
  'Pick a colour': { colour: 'teal' },
  'Pick a size': { size: 'large' },
};

function answerForm(params: ElicitRequestParams): ElicitResult {
  const content = FIXTURE_ANSWERS[params.message];
  return content === undefined ? answerElicitation(params) : { action: 'accept', content };
}

/** One client connection under test: the client, what it saw, and the processes it started. */
class Peer {
  readonly stderr = new StderrTail();
  readonly log = new ConversationLog();
  readonly logs = new Arrivals<LoggingMessageNotificationParams>();
  readonly toolListChanges = new Arrivals<true>();
  readonly updatedUris = new Arrivals<string>();
  /** The message of every elicitation the handler was asked, in order. */
  readonly elicitations: string[] = [];
  readonly errors: Error[] = [];
  /** Every channel the transport opened (a probe that meets silence opens a second one). */
  readonly channels: StdioClientChannel[] = [];
  /** What the roots handler answers; a test may change it. */
  roots: Root[] = CLIENT_ROOTS;
  readonly client: Client;
  readonly wire: ClientWireCheck;
  readonly transport: Transport;

  constructor(server: StdioCommand, options: { handlers?: ClientHandlers; era?: 'handshake' } = {}) {
    const handlers: ClientHandlers = options.handlers ?? {
      elicitation: (params) => {
        this.elicitations.push(params.message);
        return answerForm(params);
      },
      sampling: () => answerSampling(),
      roots: () => this.roots,
    };
    this.client = new Client(INFO, {
      handlers,
      // Each test file starts fresh servers; a verdict remembered from another connection would skip the probe.
      eraCache: false,
      ...CHILD_STARTUP_WAIT,
      ...(options.era === undefined ? {} : { era: options.era }),
      onError: (error) => this.errors.push(error),
    });
    this.client.on('log', (params) => this.logs.push(params));
    this.client.on('toolsListChanged', () => this.toolListChanges.push(true));
    this.client.on('resourceUpdated', (params) => this.updatedUris.push(params.uri));
    this.wire = new ClientWireCheck(() => this.client.protocolVersion);
    const observers: ChannelObserver[] = [this.wire.observer, this.log.observer];
    const observer: ChannelObserver = {
      onSend: (message) => observers.forEach((each) => each.onSend?.(message)),
      onReceive: (frame) => observers.forEach((each) => each.onReceive?.(frame)),
    };
    const stdio = new StdioClientTransport({ ...server, stderr: this.stderr.write });
    this.transport = {
      connect: async () => {
        const channel = await stdio.connect();
        this.channels.push(channel);
        return tapChannel(channel, observer);
      },
    };
  }

  /** Connects with the era probe (the client owns the channels from here). */
  connect(): Promise<void> {
    return this.client.connect(this.transport);
  }

  /** Closes the client, then every process it started (idempotent). */
  async close(): Promise<void> {
    await this.client.close();
    await Promise.all(this.channels.map((channel) => channel.close()));
  }

  /** The params of the last request our client sent with this method. */
  lastRequest(method: string): Record<string, unknown> {
    const request = this.log.exchangesOf(method).at(-1)?.request;
    assert.ok(request, `no ${method} request was sent`);
    return request.params ?? {};
  }

  /** The log level in `_meta` of the last `tools/call` (S26-LOG-1). */
  lastLogLevel(): unknown {
    return metaOf({ params: this.lastRequest('tools/call') })[ENVELOPE.logLevel];
  }

  /** The wire check: our client's messages valid in their revision, and no local errors. */
  assertCleanWire(t: TestContext, label: string): void {
    for (const failure of this.wire.serverFailures) t.diagnostic(`${label}: ${failure}`);
    assert.ok(this.wire.checkedCount > 0, 'the wire tap saw the conversation');
    assert.deepEqual(this.wire.clientFailures, [], `server stderr:\n${this.stderr}`);
    assert.deepEqual(
      this.errors.map((error) => error.message),
      [],
      'our client reported no local error',
    );
  }
}

/** Closing a subscription on stdio sends `notifications/cancelled` for its listen request (S26-SUB-6). */
function assertListenCancelled(log: ConversationLog, id: unknown): void {
  const last = log.clientNotifications.at(-1);
  assert.equal(last?.method, 'notifications/cancelled');
  assert.equal(last.params?.requestId, id, 'the cancellation names the listen request');
}

// The peers are independent processes: the suites run side by side, the tests of each in order.
describe('our Client in the stateless era, over stdio', { concurrency: true }, () => {
  describe('our Client against the official v2 server (dual-era serveStdio)', { concurrency: false }, () => {
    const peer = new Peer(OFFICIAL_V2_SERVER);
    const { client, log } = peer;
    const SERVER = 'official-v2-dual-era';
    before(() => peer.connect());
    after(() => peer.close());

    it('the probe finds a stateless-era server: era stateless at 2026-07-28, no handshake', () => {
      assert.equal(client.era, 'stateless');
      assert.equal(client.protocolVersion, STATELESS);
      assert.deepEqual(client.serverInfo, { name: SERVER, version: '2.4.0' });
      assert.equal(client.instructions, 'Fixture server of the mcpwire interop tests.');
      assert.deepEqual(client.serverCapabilities?.tools, { listChanged: true });
      assert.equal(log.clientMethods[0], 'server/discover');
      assert.ok(!log.clientMethods.includes('initialize'), log.clientMethods.join(', '));
      assert.equal(peer.channels.length, 1, 'one server process');
    });

    it('lists the tools and calls them; structured output is checked against the outputSchema', async () => {
      const tools = await client.listAllTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        [
          'greet',
          'add',
          'delete_branch',
          'ask_model_about_roots',
          'two_step_order',
          'log_and_return',
          'toggle_extra_tool',
        ],
      );
      const greeting = await client.callTool({ name: 'greet', arguments: { name: 'Grace' } });
      assert.deepEqual(toPlainResult(greeting, SERVER), textResult('Hello, Grace!'));
      const sum = toPlainResult(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }), SERVER);
      assert.deepEqual(sum, { content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } });
    });

    it('input_required results are answered by our handlers and retried until complete', async () => {
      const cases: Array<[string, Record<string, unknown>, string[][], string]> = [
        ['delete_branch', { branch: 'old' }, [['confirm']], 'Deleted old.'],
        // A declined elicitation is an answer too (S26-MRTR-12).
        ['delete_branch', { branch: 'main' }, [['confirm']], 'Kept main (decline).'],
        ['ask_model_about_roots', {}, [['question', 'roots']], `Model: ${SAMPLED_TEXT}; roots: ${ROOT_URIS}`],
        // The second round carries the first answer in requestState, which must come back byte for byte.
        ['two_step_order', {}, [['colour'], ['size']], 'Ordered a large teal shirt.'],
      ];
      for (const [name, args, rounds, text] of cases) {
        const mark = log.mark;
        const result = await client.callTool({ name, arguments: args });
        assert.deepEqual(toPlainResult(result, SERVER), textResult(text), name);
        assertInputRounds(log.callsOf(name, mark), rounds);
      }
      assert.deepEqual(peer.elicitations, [
        'Delete branch old?',
        'Delete branch main?',
        'Pick a colour',
        'Pick a size',
      ]);
    });

    it('reads the resource, gets the prompt with arguments, completes an argument', async () => {
      const resources = await client.listAllResources();
      assert.deepEqual(
        resources.map((resource) => resource.uri),
        ['fixture://readme'],
      );
      const read = await client.readResource({ uri: 'fixture://readme' });
      assert.deepEqual(read.contents, [
        { uri: 'fixture://readme', mimeType: 'text/plain', text: 'Read me over stdio.' },
      ]);
      const prompt = await client.getPrompt({
        name: 'summarize',
        arguments: { topic: 'MCP', style: 'brief' },
      });
      assert.deepEqual(prompt.messages, [
        { role: 'user', content: { type: 'text', text: 'Summarize MCP (brief).' } },
      ]);
      const { completion } = await client.complete({
        ref: { type: 'ref/prompt', name: 'summarize' },
        argument: { name: 'style', value: 'b' },
      });
      assert.deepEqual(completion.values, ['brief', 'bullet points']);
    });

    it('setLoggingLevel sends nothing; the level rides in _meta of each later request (S26-LOG-1)', async (t) => {
      peer.logs.clear();
      await client.callTool({ name: 'log_and_return', arguments: {} });
      assert.equal(peer.lastLogLevel(), undefined);
      // S26-LOG-1: a server MUST NOT log to a request without a level; noted, since the server is not ours.
      if (peer.logs.items.length > 0)
        t.diagnostic(
          `official v2 server logged without a requested level: ${JSON.stringify(peer.logs.items)}`,
        );

      const before = log.clientMethods.length;
      await client.setLoggingLevel({ level: 'info' });
      assert.deepEqual(log.clientMethods.slice(before), [], 'no logging/setLevel in the stateless era');
      peer.logs.clear();
      assert.deepEqual(
        toPlainResult(await client.callTool({ name: 'log_and_return', arguments: {} }), SERVER),
        textResult('Logged.'),
      );
      assert.equal(peer.lastLogLevel(), 'info');
      const entry = await peer.logs.waitFor('the log of log_and_return');
      assert.deepEqual(entry, { level: 'info', logger: 'fixture', data: 'log_and_return ran' });
    });

    it('listen() is acknowledged; a tool list change arrives tagged with its subscription id', async () => {
      const subscription = client.listen({ toolsListChanged: true });
      try {
        assert.deepEqual(await subscription.acknowledged, { toolsListChanged: true });
        const before = peer.toolListChanges.items.length;
        const added = await client.callTool({ name: 'toggle_extra_tool', arguments: {} });
        assert.deepEqual(toPlainResult(added, SERVER), textResult('Added extra.'));
        await peer.toolListChanges.waitForCount('notifications/tools/list_changed', before + 1);
        assert.ok((await client.listAllTools()).some((tool) => tool.name === 'extra'));
        await client.callTool({ name: 'toggle_extra_tool', arguments: {} });
        await peer.toolListChanges.waitForCount('a second notifications/tools/list_changed', before + 2);
        const tagged = log.serverNotifications.filter(
          (note) => metaOf(note)[ENVELOPE.subscriptionId] === subscription.id,
        );
        assert.deepEqual(
          tagged.map((note) => note.method),
          [
            'notifications/subscriptions/acknowledged',
            'notifications/tools/list_changed',
            'notifications/tools/list_changed',
          ],
        );
      } finally {
        subscription.close();
      }
      await subscription.closed;
      assertListenCancelled(log, subscription.id);
    });

    it('every message our client sent is valid in 2026-07-28', (t) =>
      peer.assertCleanWire(t, 'official v2 server'));
  });

  describe(
    'our Client pinned to the handshake era against the same v2 server (the SDK shim sends real requests)',
    { concurrency: false },
    () => {
      const peer = new Peer(OFFICIAL_V2_SERVER, { era: 'handshake' });
      const { client, log } = peer;
      before(() => peer.connect());
      after(() => peer.close());

      it('the same handlers answer elicitation/create, sampling/createMessage and roots/list requests', async (t) => {
        assert.equal(client.era, 'handshake');
        assert.equal(client.protocolVersion, '2025-11-25');
        assert.equal(log.clientMethods[0], 'initialize');
        const deleted = await client.callTool({ name: 'delete_branch', arguments: { branch: 'old' } });
        assert.deepEqual(deleted, textResult('Deleted old.'));
        const asked = await client.callTool({ name: 'ask_model_about_roots', arguments: {} });
        assert.deepEqual(asked, textResult(`Model: ${SAMPLED_TEXT}; roots: ${ROOT_URIS}`));
        const ordered = await client.callTool({ name: 'two_step_order', arguments: {} });
        assert.deepEqual(ordered, textResult('Ordered a large teal shirt.'));
        assert.deepEqual(peer.elicitations, ['Delete branch old?', 'Pick a colour', 'Pick a size']);
        assert.deepEqual(log.serverRequests.map((request) => request.method).sort(), [
          'elicitation/create',
          'elicitation/create',
          'elicitation/create',
          'roots/list',
          'sampling/createMessage',
        ]);
        assert.equal(
          log.callsOf('two_step_order').length,
          1,
          'one tools/call; the rounds ran inside the server',
        );
        peer.assertCleanWire(t, 'official v2 server (handshake)');
      });
    },
  );

  describe('our Client against the official v1 server (handshake era only)', { concurrency: false }, () => {
    const peer = new Peer(OFFICIAL_V1_SERVER);
    const { client, log } = peer;
    before(() => peer.connect());
    after(() => peer.close());

    it('server/discover is answered with an error, so the client falls back to initialize (2025-11-25)', () => {
      assert.equal(client.era, 'handshake');
      assert.equal(client.protocolVersion, '2025-11-25');
      assert.deepEqual(client.serverInfo, { name: 'official-v1-echo', version: '0.0.0' });
      const [probe] = log.exchanges;
      assert.equal(probe?.request.method, 'server/discover');
      assert.equal(typeof probe.response?.error?.code, 'number', 'the probe got an error, not silence');
      assert.deepEqual(log.clientMethods.slice(0, 3), [
        'server/discover',
        'initialize',
        'notifications/initialized',
      ]);
      // An error is a definitive answer: the handshake runs on the same process, without a respawn.
      assert.equal(peer.channels.length, 1);
      const initialize = peer.lastRequest('initialize');
      assert.equal(initialize._meta, undefined, 'the handshake carries no stateless-era envelope');
      assert.equal(initialize.protocolVersion, '2025-11-25');
    });

    it('calls work in the handshake era after the fallback', async (t) => {
      assert.deepEqual(
        await client.callTool({ name: 'echo', arguments: { message: 'after the probe' } }),
        textResult('after the probe'),
      );
      assert.equal(peer.lastRequest('tools/call')._meta, undefined, 'no envelope in the handshake era');
      peer.assertCleanWire(t, 'official v1 server');
    });
  });

  describe(
    'our Client against `mcpwire serve everything` in the stateless era',
    { concurrency: false },
    () => {
      const peer = new Peer(OUR_EVERYTHING_SERVER);
      const { client, log } = peer;
      const SERVER = 'mcpwire-everything';
      before(() => peer.connect());
      after(() => peer.close());

      it('the probe settles on 2026-07-28; every request carries the envelope (S26-META-2)', async () => {
        assert.equal(client.era, 'stateless');
        assert.equal(client.protocolVersion, STATELESS);
        assert.equal(client.serverInfo?.name, SERVER);
        await client.listAllTools();
        assert.deepEqual(log.clientMethods.slice(0, 2), ['server/discover', 'tools/list']);
        for (const { request } of log.exchanges) {
          const meta = metaOf(request);
          assert.equal(meta[ENVELOPE.version], STATELESS, request.method);
          assert.deepEqual(meta[ENVELOPE.clientInfo], INFO, request.method);
          assert.ok(meta[ENVELOPE.capabilities], request.method);
        }
      });

      it('the envelope declares the 2026-07-28 client capabilities: roots without listChanged (removed)', () => {
        // 2026-07-28 removed `roots.listChanged` (and notifications/roots/list_changed): ClientCapabilities.roots is {}.
        assert.deepEqual(metaOf(log.exchanges[0]?.request)[ENVELOPE.capabilities], {
          sampling: {},
          elicitation: { form: {}, url: {} },
          roots: {},
        });
      });

      it('the input_required fixtures are answered by our handlers, round after round', async (t) => {
        const fixtures: Record<string, { rounds: string[][]; text: string }> = {
          test_input_required_result_elicitation: { rounds: [['user_name']], text: 'Hello, Ada!' },
          test_input_required_result_sampling: {
            rounds: [['capital_question']],
            text: `Model answered: ${SAMPLED_TEXT}`,
          },
          test_input_required_result_list_roots: { rounds: [['client_roots']], text: `Roots: ${ROOT_URIS}` },
          test_input_required_result_multiple_inputs: {
            rounds: [['user_name', 'greeting', 'client_roots']],
            text: `Name: Ada; greeting: ${SAMPLED_TEXT}; roots: ${ROOT_URIS}`,
          },
          test_input_required_result_multi_round: {
            rounds: [['step1'], ['step2']],
            text: 'Completed both rounds: step1=accept, step2=accept',
          },
          test_input_required_result_request_state: {
            rounds: [['confirm']],
            text: 'state-ok: the confirmation came back through the sealed requestState',
          },
          test_input_required_result_capabilities: {
            rounds: [['user_name', 'capital_question', 'client_roots']],
            text: `Answers: Ada; ${SAMPLED_TEXT}; ${ROOT_URIS}`,
          },
        };
        for (const [name, { rounds, text }] of Object.entries(fixtures)) {
          await t.test(name, async () => {
            const mark = log.mark;
            const result = await client.callTool({ name, arguments: {} });
            assert.deepEqual(toPlainResult(result, SERVER), textResult(text));
            assertInputRounds(log.callsOf(name, mark), rounds);
          });
        }
        const steps = peer.elicitations.filter((message) => message.startsWith('Step '));
        assert.deepEqual(steps, ['Step 1: pick a colour', 'Step 2: pick a size']);

        const mark = log.mark;
        PROMPT_CASES.test_input_required_result_prompt?.check(
          await client.getPrompt({ name: 'test_input_required_result_prompt' }),
        );
        assertInputRounds(log.exchangesOf('prompts/get', { since: mark }), [['user_context']]);
      });

      it('listen(): the acknowledgement, then list_changed after test_trigger_tool_change', async () => {
        const subscription = client.listen({ toolsListChanged: true });
        try {
          assert.deepEqual(await subscription.acknowledged, { toolsListChanged: true });
          const before = peer.toolListChanges.items.length;
          assert.deepEqual(
            toPlainResult(await client.callTool({ name: 'test_trigger_tool_change', arguments: {} }), SERVER),
            textResult('Tool list changed: added test_dynamic_tool.'),
          );
          await peer.toolListChanges.waitForCount('notifications/tools/list_changed', before + 1);
          assert.ok((await client.listAllTools()).some((tool) => tool.name === 'test_dynamic_tool'));
          assert.deepEqual(
            toPlainResult(await client.callTool({ name: 'test_dynamic_tool', arguments: {} }), SERVER),
            textResult('Dynamic tool called.'),
          );
          await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
          await peer.toolListChanges.waitForCount('a second notifications/tools/list_changed', before + 2);
          assert.ok(!(await client.listAllTools()).some((tool) => tool.name === 'test_dynamic_tool'));
          const tagged = log.serverNotifications.filter(
            (note) => metaOf(note)[ENVELOPE.subscriptionId] === subscription.id,
          );
          assert.deepEqual(
            tagged.map((note) => note.method),
            [
              'notifications/subscriptions/acknowledged',
              'notifications/tools/list_changed',
              'notifications/tools/list_changed',
            ],
          );
        } finally {
          subscription.close();
        }
        await subscription.closed;
        assertListenCancelled(log, subscription.id);
      });

      it('listen() with resourceSubscriptions brings resourceUpdated for the watched resource', async () => {
        const uri = 'test://watched-resource';
        const subscription = client.listen({ resourceSubscriptions: [uri] });
        try {
          assert.deepEqual(await subscription.acknowledged, { resourceSubscriptions: [uri] });
          peer.updatedUris.clear();
          const result = await client.callTool({
            name: 'test_update_watched_resource',
            arguments: { content: 'changed in the stateless era' },
          });
          assert.match(
            onlyText(toPlainResult(result, SERVER)),
            /^Updated test:\/\/watched-resource to revision \d+\.$/,
          );
          assert.equal(await peer.updatedUris.waitFor('notifications/resources/updated'), uri);
          assert.deepEqual((await client.readResource({ uri })).contents, [
            { uri, mimeType: 'text/plain', text: 'changed in the stateless era' },
          ]);
        } finally {
          subscription.close();
        }
        await subscription.closed;
        assertListenCancelled(log, subscription.id);
      });

      it('setLoggingLevel becomes the per-request _meta log level; test_logging_tool logs only then', async () => {
        peer.logs.clear();
        const call = async (): Promise<void> => {
          const result = await client.callTool({ name: 'test_logging_tool', arguments: {} });
          assert.deepEqual(toPlainResult(result, SERVER), textResult('Logging tool executed.'));
        };
        // Our server writes a request's notifications before its result: none arrived means none was sent.
        await call();
        assert.equal(
          peer.logs.items.length,
          0,
          `no level requested, no notifications/message (S26-LOG-1): ${JSON.stringify(peer.logs.items)}`,
        );
        assert.equal(peer.lastLogLevel(), undefined);

        const before = log.clientMethods.length;
        await client.setLoggingLevel({ level: 'info' });
        assert.deepEqual(log.clientMethods.slice(before), [], 'nothing is sent: logging/setLevel is gone');
        await call();
        assert.equal(peer.lastLogLevel(), 'info');
        assert.deepEqual(
          peer.logs.items.map((entry) => [entry.level, entry.data]),
          [['info', 'test_logging_tool ran']],
        );

        peer.logs.clear();
        await client.setLoggingLevel({ level: 'error' });
        await call();
        assert.equal(peer.lastLogLevel(), 'error');
        assert.equal(
          peer.logs.items.length,
          0,
          `info is below the level: ${JSON.stringify(peer.logs.items)}`,
        );
      });

      it('changed roots are answered on the next request; sendRootsListChanged() sends nothing and resolves', async () => {
        peer.roots = [{ uri: 'file:///work/renamed-project', name: 'renamed' }];
        try {
          const result = await client.callTool({
            name: 'test_input_required_result_list_roots',
            arguments: {},
          });
          assert.deepEqual(toPlainResult(result, SERVER), textResult('Roots: file:///work/renamed-project'));
          // The docs say to call it after the roots change; 2026-07-28 has no notifications/roots/list_changed,
          // so in the stateless era it must resolve without sending anything.
          const before = log.clientMethods.length;
          await assert.doesNotReject(client.sendRootsListChanged());
          assert.deepEqual(log.clientMethods.slice(before), []);
        } finally {
          peer.roots = CLIENT_ROOTS;
        }
      });

      it('every message our client sent is valid in 2026-07-28', (t) =>
        peer.assertCleanWire(t, 'our server'));
    },
  );

  describe(
    'our Client with only a sampling handler against `mcpwire serve everything`',
    { concurrency: false },
    () => {
      const peer = new Peer(OUR_EVERYTHING_SERVER, { handlers: { sampling: () => answerSampling() } });
      const { client, log } = peer;
      before(() => peer.connect());
      after(() => peer.close());

      it('capabilities are per request: only sampling is asked; a needed elicitation is -32021', async (t) => {
        assert.deepEqual(metaOf(log.exchanges[0]?.request)[ENVELOPE.capabilities], { sampling: {} });
        const name = 'test_input_required_result_capabilities';
        const result = await client.callTool({ name, arguments: {} });
        assert.deepEqual(toPlainResult(result, 'mcpwire-everything'), textResult(`Answers: ${SAMPLED_TEXT}`));
        assertInputRounds(log.callsOf(name), [['capital_question']]);
        // S26-MRTR-3 / S26-META-4: an indispensable input the request did not declare is an error, not a request.
        await assert.rejects(
          client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }),
          (error: unknown) => {
            assert.ok(error instanceof RpcError, String(error));
            assert.equal(error.code, -32021);
            assert.deepEqual(error.data, { requiredCapabilities: { elicitation: {} } });
            return true;
          },
        );
        peer.assertCleanWire(t, 'our server');
      });
    },
  );
});
