// How `replay --check` prints what it found: a line per response (same, changed, timeout), the
// changed paths with the recorded and the received value, and a summary line.

import type { Colours } from '../../terminal/colours.ts';
import type { CheckedResponse, CheckReport } from './check-run.ts';
import type { Difference } from './json-diff.ts';

/** The longest value shown for one side of a difference. */
const VALUE_LIMIT = 200;

/** The lines for one response: `  same     tools/list`, or `  changed  ...` and its differences. */
export function formatChecked(checked: CheckedResponse, colours: Colours): string {
  if (checked.problem !== undefined)
    return `  ${colours.red('timeout')}  ${checked.label} (request ${checked.number}): ${checked.problem}\n`;
  if (checked.differences.length === 0) return `  ${colours.green('same')}     ${checked.label}\n`;
  const lines = [`  ${colours.red('changed')}  ${checked.label} (request ${checked.number})`];
  for (const difference of checked.differences) lines.push(...formatDifference(difference, colours));
  return `${lines.join('\n')}\n`;
}

/** The closing lines: unexpected server requests, then the counts. */
export function formatSummary(report: CheckReport, colours: Colours): string {
  const lines: string[] = [];
  for (const request of report.unexpectedRequests)
    lines.push(
      `  ${colours.red('unexpected')}  the server sent a ${request} request, which the recording has no answer for`,
    );
  const { responses } = report;
  const changed = responses.filter((checked) => checked.differences.length > 0).length;
  const timedOut = responses.filter((checked) => checked.problem !== undefined).length;
  const same = responses.length - changed - timedOut;
  const counts = [`${same} the same`, `${changed} changed`];
  if (timedOut > 0) counts.push(`${timedOut} unanswered`);
  if (report.unexpectedRequests.length > 0) counts.push(`${report.unexpectedRequests.length} unexpected`);
  const noun = responses.length === 1 ? 'response' : 'responses';
  const total = `${responses.length} ${noun} compared with the recording: ${counts.join(', ')}`;
  const isClean = changed + timedOut + report.unexpectedRequests.length === 0;
  lines.push('', isClean ? colours.green(total) : colours.bold(colours.red(total)));
  if (report.unansweredCount > 0)
    lines.push(
      colours.dim(
        `(${report.unansweredCount} recorded ${report.unansweredCount === 1 ? 'request has' : 'requests have'} no recorded response and ${report.unansweredCount === 1 ? 'was' : 'were'} sent without waiting)`,
      ),
    );
  return `${lines.join('\n')}\n`;
}

function formatDifference(difference: Difference, colours: Colours): string[] {
  const side = (value: unknown, isThere: boolean): string => (isThere ? show(value) : '(absent)');
  return [
    `      ${colours.bold(difference.path)}`,
    `        ${colours.red(`recorded: ${side(difference.recorded, difference.kind !== 'added')}`)}`,
    `        ${colours.green(`received: ${side(difference.received, difference.kind !== 'removed')}`)}`,
  ];
}

function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length <= VALUE_LIMIT ? text : `${text.slice(0, VALUE_LIMIT)}... (${text.length} characters)`;
}
