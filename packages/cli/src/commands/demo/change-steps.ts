// Steps 5 and 6: a list change (the host's roots in the handshake era; a listen stream's
// acknowledgement in 2026-07-28) and a long call that reports progress.

import type { Progress } from 'mcpwire/client';
import { methodOf, paramsOf } from '../../terminal/wire-record.ts';
import { issueUri, REPOSITORY, type StepContext } from './step-context.ts';

/** Step 5: a list change. */
export async function listChangeStep(context: StepContext): Promise<void> {
  const { printer, checks, host, era } = context;
  printer.heading('5. A list change');
  printer.note(
    'the github server declares tools.listChanged and resources.listChanged, but its tools and resource templates ' +
      'never change (a new issue is one more URI of a template), so it never sends */list_changed',
  );
  if (era === 'handshake') {
    printer.note(
      "the host side has a list that changes: the user opens a second folder, so the host's roots change",
    );
    host.roots = [...host.roots, { uri: 'file:///home/demo/acme/api', name: 'api' }];
    const mark = printer.wire.entries.length;
    await host.client.sendRootsListChanged();
    checks.expect(
      printer.wire
        .since(mark)
        .some(
          (entry) =>
            entry.direction === 'sent' && methodOf(entry.message) === 'notifications/roots/list_changed',
        ),
      'notifications/roots/list_changed sent: no id, no answer (the server may ask roots/list when it needs them)',
    );
    return;
  }
  await listenStep(context);
}

async function listenStep(context: StepContext): Promise<void> {
  const { printer, checks, host } = context;
  const uri = issueUri(context.issueNumber ?? 1);
  printer.note('in 2026-07-28 change notices come only on a subscriptions/listen stream: the host opens one');
  context.subscription = host.client.listen({
    toolsListChanged: true,
    resourcesListChanged: true,
    resourceSubscriptions: [uri],
  });
  const honoured = await context.subscription.acknowledged;
  checks.expect(
    honoured.toolsListChanged === true && honoured.resourceSubscriptions?.includes(uri) === true,
    "notifications/subscriptions/acknowledged: the server honours list changes and the issue's updates (S26-SUB-2)",
  );
}

/** Step 6: search_issues with a progress token. */
export async function progressStep({ printer, checks, host }: StepContext): Promise<void> {
  printer.heading('6. tools/call search_issues, with a progress token');
  const updates: Progress[] = [];
  const mark = printer.wire.entries.length;
  const result = await host.client.callTool(
    { name: 'search_issues', arguments: { query: 'login is:open', ...REPOSITORY } },
    { onProgress: (progress) => updates.push(progress) },
  );
  const entries = printer.wire.since(mark);
  const call = entries.find(
    (entry) => entry.direction === 'sent' && methodOf(entry.message) === 'tools/call',
  );
  const meta = (call ? paramsOf(call.message)._meta : undefined) as { progressToken?: unknown } | undefined;
  const token = meta?.progressToken;
  const progress = entries.filter((entry) => methodOf(entry.message) === 'notifications/progress');
  const isMonotonic = updates.every(
    (update, index) => index === 0 || update.progress > updates[index - 1]!.progress,
  );
  const described = updates.map((update) =>
    `${update.progress}/${String(update.total)} ${update.message ?? ''}`.trim(),
  );
  printer.note(`${updates.length} progress updates: ${described.join('; ')}`);
  checks.expect(
    token !== undefined &&
      progress.length > 0 &&
      progress.every((entry) => paramsOf(entry.message).progressToken === token) &&
      isMonotonic,
    "notifications/progress carried the request's progressToken, increasing, before the response",
  );
  checks.expect(result.isError !== true, 'the search completed');
}
