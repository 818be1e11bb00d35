// The story's first half on the main connection: the host connects (initialize, or server/discover
// in 2026-07-28), what was negotiated and a request refused locally, tools/list, create_issue, a list
// change, and progress.

import { ProtocolStateError, type JsonObject } from 'mcpwire';
import { isResponse, methodOf, paramsOf, type WireEntry } from '../../terminal/wire-record.ts';
import { issueUri, REPOSITORY, structuredOf, type StepContext } from './step-context.ts';

/** Step 2: the host connects with the library Client and prints what both sides declared. */
export async function connectStep(context: StepContext): Promise<void> {
  const { printer, host, era } = context;
  printer.heading(
    era === 'handshake'
      ? '2. The handshake: initialize, its result, initialized'
      : '2. server/discover (no handshake in 2026-07-28)',
  );
  const mark = printer.wire.entries.length;
  context.connection = await context.server.open();
  await host.client.connect(context.connection.channel);
  if (host.client.protocolVersion !== undefined) context.protocolVersion = host.client.protocolVersion;
  checkConnect(context, printer.wire.since(mark));
  printer.note(
    `negotiated: protocol ${String(host.client.protocolVersion)} with ${host.client.serverInfo?.name ?? '(no serverInfo)'} ${host.client.serverInfo?.version ?? ''}`,
  );
  printer.note(`the server declared: ${JSON.stringify(host.client.serverCapabilities)}`);
  await refusalStep(context);
}

/** What the connect must have put on the wire, per era. */
function checkConnect({ checks, era }: StepContext, entries: WireEntry[]): void {
  const sent = entries.filter((entry) => entry.direction === 'sent');
  const first = sent[0]?.message;
  if (era === 'stateless') {
    checks.expect(
      first !== undefined &&
        methodOf(first) === 'server/discover' &&
        !sent.some((entry) => methodOf(entry.message) === 'initialize'),
      'server/discover answered; no initialize: every request carries the version and capabilities in _meta',
    );
    return;
  }
  const asked = first ? paramsOf(first) : {};
  const caps = (asked.capabilities ?? {}) as JsonObject;
  checks.expect(
    first !== undefined &&
      methodOf(first) === 'initialize' &&
      ['sampling', 'roots', 'elicitation'].every((key) => key in caps),
    "initialize declared the host's sampling, roots and elicitation capabilities",
  );
  const answer = entries.find((entry) => entry.direction === 'received' && isResponse(entry.message));
  const answered = answer && 'result' in answer.message ? answer.message.result.protocolVersion : undefined;
  checks.expect(
    answered === asked.protocolVersion &&
      sent.some((entry) => methodOf(entry.message) === 'notifications/initialized'),
    `the server echoed ${String(answered)} and the host sent notifications/initialized (LIFE-3)`,
  );
}

/** A request the negotiated revision does not allow is refused by the Client: nothing is sent. */
async function refusalStep({ printer, checks, host, era }: StepContext): Promise<void> {
  const mark = printer.wire.entries.length;
  let refusal: unknown;
  try {
    if (era === 'handshake') host.client.listen({ toolsListChanged: true });
    else await host.client.subscribeResource({ uri: issueUri(1) });
  } catch (error) {
    refusal = error;
  }
  const what =
    era === 'handshake'
      ? 'subscriptions/listen (2026-07-28 only)'
      : 'resources/subscribe (gone in 2026-07-28)';
  printer.note(
    `the host tries ${what}: ${refusal instanceof Error ? `${refusal.name}: ${refusal.message}` : 'it was sent'}`,
  );
  checks.expect(
    refusal instanceof ProtocolStateError && printer.wire.entries.length === mark,
    'refused locally, nothing on the wire: both sides use only what was negotiated',
  );
}

/** Step 3: tools/list. */
export async function toolsStep({ printer, checks, host }: StepContext): Promise<void> {
  printer.heading('3. tools/list');
  const { tools } = await host.client.listTools();
  printer.note(`${tools.length} tools: ${tools.map((tool) => tool.name).join(', ')}`);
  checks.expect(
    ['create_issue', 'search_issues', 'update_issue', 'add_issue_comment', 'summarize_issue'].every((name) =>
      tools.some((tool) => tool.name === name),
    ),
    'the list has every tool the story calls',
  );
}

/** Step 4: tools/call create_issue. */
export async function createIssueStep(context: StepContext): Promise<void> {
  const { printer, checks, host } = context;
  printer.heading(`4. tools/call create_issue in ${REPOSITORY.owner}/${REPOSITORY.repo}`);
  const result = await host.client.callTool({
    name: 'create_issue',
    arguments: {
      ...REPOSITORY,
      title: 'Login page returns 500 on Safari',
      body: 'After a password reset, logging in on Safari 17 returns HTTP 500. Steps below.',
      labels: ['bug'],
    },
  });
  const number = structuredOf(result).number;
  const isMirrored = result.content.some(
    (block) => block.type === 'text' && block.text.includes(`"number":${String(number)}`),
  );
  checks.expect(
    result.isError !== true && typeof number === 'number' && isMirrored,
    `issue #${String(number)} created (structuredContent, mirrored as a text block, TOOL-4)`,
  );
  if (typeof number === 'number') context.issueNumber = number;
}
