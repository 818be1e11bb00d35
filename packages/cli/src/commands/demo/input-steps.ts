// Steps 7 to 9: the server asks the host for input, through the same tool handlers in both eras.
// Handshake era: a real server->client request inside the tools/call. 2026-07-28: an input_required
// result, answered on a retry with inputResponses and the sealed requestState (MRTR).

import type { CallToolRequestParams, CallToolResult } from 'mcpwire';
import { CANNED_MODEL } from './host.ts';
import { isResponse, methodOf, paramsOf, type WireEntry } from '../../terminal/wire-record.ts';
import { issueUri, REPOSITORY, structuredOf, type StepContext } from './step-context.ts';

/** The input a call needs: the server's method for it and the key it names it by in 2026-07-28. */
interface InputExpectation {
  method: 'sampling/createMessage' | 'elicitation/create';
  key: string;
}

/** Step 7: summarize_issue, answered by the host's (canned) model. */
export async function samplingStep(context: StepContext): Promise<void> {
  const number = context.issueNumber ?? 1;
  context.printer.heading(`7. tools/call summarize_issue: the server asks the host's model (sampling)`);
  const result = await callWithInput(
    context,
    { name: 'summarize_issue', arguments: { ...REPOSITORY, issue_number: number } },
    { method: 'sampling/createMessage', key: 'summary' },
  );
  context.checks.expect(
    structuredOf(result).model === CANNED_MODEL,
    `the tool's result carries the host's answer (model ${CANNED_MODEL})`,
  );
}

/** Step 8: the host subscribes to the issue; a comment makes the server send resources/updated. */
export async function resourceUpdateStep(context: StepContext): Promise<void> {
  const { printer, checks, host, era } = context;
  const uri = issueUri(context.issueNumber ?? 1);
  printer.heading('8. A resource update: subscribe to the issue, then comment on it');
  if (era === 'handshake') await host.client.subscribeResource({ uri });
  else printer.note(`the listen stream opened in step 5 already covers ${uri}`);
  const updated = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 5000);
    const off = host.client.on('resourceUpdated', (params) => {
      if (params.uri !== uri) return;
      clearTimeout(timer);
      off();
      resolve(true);
    });
  });
  const result = await host.client.callTool({
    name: 'add_issue_comment',
    arguments: {
      ...REPOSITORY,
      issue_number: context.issueNumber ?? 1,
      body: 'Reproduced on Safari 17.4; Chrome is fine.',
    },
  });
  checks.expect(result.isError !== true, 'the comment was added');
  checks.expect(await updated, `notifications/resources/updated arrived for ${uri}`);
  const { contents } = await host.client.readResource({ uri });
  const text = contents[0] && 'text' in contents[0] ? contents[0].text : '';
  checks.expect(
    text.includes('Reproduced on Safari 17.4'),
    'the host re-reads the resource (resources/read) and sees the comment',
  );
}

/** Step 9: closing the issue asks the user to confirm (elicitation); the user accepts. */
export async function elicitationStep(context: StepContext): Promise<void> {
  const number = context.issueNumber ?? 1;
  context.printer.heading(
    `9. tools/call update_issue closing #${number}: the server asks the user (elicitation)`,
  );
  const result = await callWithInput(
    context,
    {
      name: 'update_issue',
      arguments: { ...REPOSITORY, issue_number: number, state: 'closed', state_reason: 'completed' },
    },
    { method: 'elicitation/create', key: 'confirm_state' },
  );
  const content = structuredOf(result);
  const issue = content.issue as { state?: unknown } | undefined;
  context.checks.expect(
    content.updated === true && issue?.state === 'closed',
    `the user's "accept" closed #${number}`,
  );
}

/** Runs one call that needs input and checks the era's way of asking for it on the wire. */
async function callWithInput(
  context: StepContext,
  call: CallToolRequestParams,
  input: InputExpectation,
): Promise<CallToolResult> {
  const mark = context.printer.wire.entries.length;
  const result = await context.host.client.callTool(call);
  const entries = context.printer.wire.since(mark);
  if (context.era === 'handshake') checkNestedRequest(context, entries, input);
  else checkInputRounds(context, entries, input);
  context.checks.expect(result.isError !== true, `${call.name} completed`);
  return result;
}

function checkNestedRequest({ checks }: StepContext, entries: WireEntry[], input: InputExpectation): void {
  const asked = entries.find(
    (entry) => entry.direction === 'received' && methodOf(entry.message) === input.method,
  );
  const id = asked && 'id' in asked.message ? asked.message.id : undefined;
  const answer = entries.find(
    (entry) =>
      entry.direction === 'sent' &&
      isResponse(entry.message) &&
      'id' in entry.message &&
      entry.message.id === id,
  );
  const callIndex = entries.findIndex(
    (entry) => entry.direction === 'received' && isResponse(entry.message) && entry !== answer,
  );
  checks.expect(
    id !== undefined &&
      answer !== undefined &&
      'result' in answer.message &&
      callIndex > entries.indexOf(answer),
    `the server sent ${input.method} while the tools/call was open; the host answered it; then the call's response came`,
  );
}

function checkInputRounds({ checks }: StepContext, entries: WireEntry[], input: InputExpectation): void {
  const calls = entries.filter(
    (entry) => entry.direction === 'sent' && methodOf(entry.message) === 'tools/call',
  );
  const responses = entries.filter((entry) => entry.direction === 'received' && isResponse(entry.message));
  const first =
    responses[0] && 'result' in responses[0].message
      ? (responses[0].message.result as Record<string, unknown>)
      : {};
  const requested = (first.inputRequests as Record<string, { method?: unknown }> | undefined)?.[input.key];
  const retry = calls[1] ? paramsOf(calls[1].message) : {};
  const answered = (retry.inputResponses as Record<string, unknown> | undefined)?.[input.key];
  checks.expect(
    first.resultType === 'input_required' && requested?.method === input.method,
    `round 1 ended with resultType "input_required", inputRequests.${input.key} = ${input.method}`,
  );
  checks.expect(
    calls.length === 2 && answered !== undefined && typeof retry.requestState === 'string',
    `round 2: a new request (new id) with inputResponses.${input.key} and the requestState as received`,
  );
}
