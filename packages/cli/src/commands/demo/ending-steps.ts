// Steps 10 and 11: a request cancelled while in flight (no response may follow, CANCEL-*), and the
// shutdown, which has no JSON-RPC message: the transport ends it (stdin EOF, or the HTTP session).

import { setTimeout as delay } from 'node:timers/promises';
import { RequestCancelledError } from 'mcpwire/client';
import type { RequestId } from 'mcpwire';
import { SHUTDOWN_NOTE } from './connections.ts';
import { methodOf, paramsOf } from '../../terminal/wire-record.ts';
import { REPOSITORY, type StepContext } from './step-context.ts';

/** How long the host watches for a (forbidden) response after cancelling. */
const QUIET_PERIOD_MS = 300;

/** The seeded issue whose summary the user gives up on. */
const OTHER_ISSUE = 1;

/** Step 10: a cancellation. */
export async function cancellationStep(context: StepContext): Promise<void> {
  if (context.era === 'handshake') await cancelHeldCall(context);
  else await cancelListen(context);
}

/**
 * Handshake era: summarize_issue waits for the host's sampling answer; the user stops the task
 * instead, so the host cancels the tools/call and the server cancels its sampling request in turn.
 */
async function cancelHeldCall(context: StepContext): Promise<void> {
  const { printer, host } = context;
  printer.heading(
    `10. A cancellation: summarize_issue #${OTHER_ISSUE}, stopped while the server waits for the host`,
  );
  const controller = new AbortController();
  let samplingId: RequestId | undefined;
  host.onSampling = (_params, ctx) =>
    new Promise((_resolve, reject) => {
      samplingId = ctx.requestId;
      printer.note('the host shows the sampling request for approval; the user stops the whole task instead');
      ctx.signal.addEventListener('abort', () => reject(new Error('cancelled by the server')), {
        once: true,
      });
      controller.abort('the user stopped the task');
    });
  const mark = printer.wire.entries.length;
  try {
    await host.client.callTool(
      { name: 'summarize_issue', arguments: { ...REPOSITORY, issue_number: OTHER_ISSUE } },
      { signal: controller.signal },
    );
    context.checks.fail('summarize_issue completed although it was cancelled');
  } catch (error) {
    if (!(error instanceof RequestCancelledError)) throw error;
    printer.note(`callTool rejected locally at once: ${error.name}`);
  } finally {
    host.onSampling = undefined;
  }
  await delay(QUIET_PERIOD_MS);
  checkCancelled(context, { mark, samplingId });
}

function checkCancelled(
  context: StepContext,
  seen: { mark: number; samplingId: RequestId | undefined },
): void {
  const { printer, checks } = context;
  const entries = printer.wire.since(seen.mark);
  const call = entries.find(
    (entry) => entry.direction === 'sent' && methodOf(entry.message) === 'tools/call',
  );
  const callId = call && 'id' in call.message ? call.message.id : undefined;
  const cancels = (direction: 'sent' | 'received', id: RequestId | undefined): boolean =>
    entries.some(
      (entry) =>
        entry.direction === direction &&
        methodOf(entry.message) === 'notifications/cancelled' &&
        paramsOf(entry.message).requestId === id,
    );
  checks.expect(
    callId !== undefined && cancels('sent', callId),
    `the host sent notifications/cancelled for #${String(callId)}`,
  );
  checks.expect(
    seen.samplingId !== undefined && cancels('received', seen.samplingId),
    `the server cancelled its own sampling/createMessage #${String(seen.samplingId)} in turn`,
  );
  checks.expect(
    printer.wire.responses('received', callId).length === 0 &&
      printer.wire.responses('sent', seen.samplingId).length === 0,
    `no response to either request within ${QUIET_PERIOD_MS} ms, as the spec requires`,
  );
}

/**
 * 2026-07-28: a tools/call never waits on the host (input comes back as input_required), so the
 * request in flight to cancel is the listen stream; cancelling it ends it with no response (S26-SUB-6).
 */
async function cancelListen(context: StepContext): Promise<void> {
  const { printer, checks } = context;
  printer.heading('10. A cancellation: the host ends its listen stream, a request still in flight');
  printer.note(
    'in 2026-07-28 no tools/call waits on the host (input comes back as input_required): the request in flight is subscriptions/listen',
  );
  const subscription = context.subscription;
  if (!subscription) {
    checks.fail('no listen stream was open to cancel');
    return;
  }
  const id = subscription.id;
  const mark = printer.wire.entries.length;
  subscription.close();
  await subscription.closed;
  await delay(QUIET_PERIOD_MS);
  const cancelled = printer.wire
    .since(mark)
    .some(
      (entry) =>
        entry.direction === 'sent' &&
        methodOf(entry.message) === 'notifications/cancelled' &&
        paramsOf(entry.message).requestId === id,
    );
  if (context.server.kind === 'stdio')
    checks.expect(cancelled, `the host sent notifications/cancelled for the listen request #${String(id)}`);
  else {
    const listen = context.server.exchanges.find((exchange) => exchange.rpc.includes('subscriptions/listen'));
    checks.expect(
      !cancelled && listen?.isClosedByHost === true,
      `over Streamable HTTP the host cancels by closing the listen request's SSE stream; nothing is posted (S26-HTTP-10)`,
    );
  }
  checks.expect(
    printer.wire.responses('received', id).length === 0,
    `no response to #${String(id)} within ${QUIET_PERIOD_MS} ms`,
  );
}

/** Step 11: shutdown. */
export async function shutdownStep(context: StepContext): Promise<void> {
  const { printer, checks, host, server } = context;
  printer.heading('11. Shutdown: no JSON-RPC message, the transport ends the session');
  const mark = server.exchanges.length;
  await host.client.close();
  if (server.kind === 'stdio') {
    const code = context.connection?.exitCode();
    printer.note(
      `the host closed the server's stdin (EOF); process ${String(context.connection?.pid)} exited by itself`,
    );
    printer.note(SHUTDOWN_NOTE);
    checks.expect(code === 0, `the server exited with code ${String(code)} after stdin closed`);
    return;
  }
  const deletes = server.exchanges.slice(mark).filter((exchange) => exchange.method === 'DELETE');
  if (context.era === 'handshake')
    checks.expect(
      deletes.length === 1 && (deletes[0]?.status ?? 500) < 300,
      `the host ended its HTTP session: DELETE with its Mcp-Session-Id, answered ${String(deletes[0]?.status)}`,
    );
  else
    checks.expect(
      deletes.length === 0,
      'stateless: no session to end, so no DELETE; the host just stops sending',
    );
  await server.close();
}
