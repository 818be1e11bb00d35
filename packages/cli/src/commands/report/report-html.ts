// The report as one self-contained HTML document: a summary, two lanes named from the header, and
// a CSS grid with a row per message, invalid line and transport event, in transcript order.
// Every text from the transcript goes through `markup` (escaped); the CSS and script are ours.

import type { Side } from '../../wire/transcript.ts';
import { joinHtml, markup, SafeHtml } from './html.ts';
import { REPORT_SCRIPT, REPORT_STYLE } from './report-assets.ts';
import type { ArrowRow, NoteRow, ReportModel, ReportPair } from './report-model.ts';

/** The most failures linked from the summary (the rest are counted). */
const MAX_LINKED_FAILURES = 20;

/** Renders the whole document; its size is linear in the transcript's. */
export function toReportHtml(model: ReportModel): string {
  const { header } = model;
  const tracks = Math.max(1, model.tracks);
  const rows = model.rows.map((row, index) =>
    row.type === 'arrow' ? arrowRow(row, index, model.pairs) : noteRow(row, index),
  );
  const spans = model.pairs.map((pair, index) => bracket(pair, index));
  const lanes = [lane('client', `host · ${header.recorder}`), lane('server', header.target)];
  return markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcpwire report: ${header.target}</title>
<style>${new SafeHtml(REPORT_STYLE)}</style>
</head>
<body>
${summary(model)}
<div class="grid lanes-head" style="--tracks: ${tracks}">
<div class="t">time</div>
<div class="heads">${lanes}</div>
</div>
<main class="grid diagram" style="--tracks: ${tracks}">
${joinHtml(rows, '\n')}
${joinHtml(spans, '\n')}
</main>
<script>${new SafeHtml(REPORT_SCRIPT)}</script>
</body>
</html>
`.toString();
}

function summary(model: ReportModel): SafeHtml {
  const { header, counts, rows } = model;
  const last = rows.at(-1)?.t ?? 0;
  const facts = [
    `recorded by ${header.recorder}`,
    header.transport === 'http' ? 'Streamable HTTP' : 'stdio',
    `started ${header.startedAt}`,
    ...(model.era === undefined ? [] : [model.era]),
  ];
  const tally = [
    plural(counts.messages, 'message'),
    plural(counts.requests, 'request'),
    plural(counts.notifications, 'notification'),
    plural(counts.failures, 'failure'),
    plural(counts.invalid, 'invalid line'),
    `${(last / 1000).toFixed(3)} s`,
  ];
  const failed = rows.flatMap((row, index) => (isFailure(row) ? [{ row, index }] : []));
  const links = failed
    .slice(0, MAX_LINKED_FAILURES)
    .map(({ row, index }) => markup`<a href="#row-${index}">${failureText(row)}</a>`);
  const more =
    failed.length > MAX_LINKED_FAILURES ? `and ${failed.length - MAX_LINKED_FAILURES} more` : undefined;
  const nav = failed.length === 0 ? undefined : markup`<nav class="failures">Failures: ${links}${more}</nav>`;
  return markup`<header class="summary">
<h1>MCP session with <code>${header.target}</code></h1>
<p class="facts">${facts.join(' · ')}</p>
<p class="counts">${tally.join(' · ')}</p>
${nav}
<div class="controls"><button type="button" id="expand-all">expand all</button><button type="button" id="collapse-all">collapse all</button></div>
</header>`;
}

function lane(side: Side, text: string): SafeHtml {
  return markup`<div class="lane ${side}"><b>${side}</b>${text}</div>`;
}

function arrowRow(row: ArrowRow, index: number, pairs: readonly ReportPair[]): SafeHtml {
  const { summary } = row;
  const classes = [
    'arrow',
    row.from === 'client' ? 'to-server' : 'to-client',
    row.index === undefined ? 'invalid' : summary.kind,
    ...(summary.failure === undefined ? [] : ['failure']),
  ].join(' ');
  // Attributes in a fixed order: the tests read index, sender and pair from the DOM.
  const attributes = [
    row.index === undefined ? undefined : markup` data-index="${row.index}"`,
    markup` data-from="${row.from}"`,
    row.pair === undefined ? undefined : markup` data-pair="${row.pair}"`,
  ];
  return markup`<div class="t" style="grid-row: ${index + 1}">${stamp(row.t)}</div>
<div class="cell" id="row-${index}" style="grid-row: ${index + 1}" data-entry="${row.entry}"><div class="${classes}"${attributes}><span class="head"></span><details><summary>${arrowSummary(row, index, pairs)}</summary><pre>${row.body}</pre></details></div></div>`;
}

/** The arrow's one line: label, failure marks in words, the error's message, elapsed ms, tags. */
function arrowSummary(row: ArrowRow, index: number, pairs: readonly ReportPair[]): SafeHtml {
  const { label, failure, detail } = row.summary;
  const pair = row.pair === undefined ? undefined : pairs[row.pair];
  const marks = [
    failure !== undefined && !label.includes(failure) ? failure : undefined,
    row.isUnanswered === true ? 'no response' : undefined,
    row.isUnmatched === true ? 'answers no request' : undefined,
  ].flatMap((mark) => (mark === undefined ? [] : [markup`<span class="mark">${mark}</span>`]));
  const parts = [
    markup`<span class="label">${label}</span>`,
    ...marks,
    detail === undefined ? undefined : markup`<span class="detail">${detail}</span>`,
    pair?.response === index ? markup`<span class="ms">${milliseconds(pair.elapsedMs)}</span>` : undefined,
    ...row.tags.map((tag) => markup`<span class="tag">${tag}</span>`),
  ];
  return markup`${parts}`;
}

function noteRow(row: NoteRow, index: number): SafeHtml {
  const classes = `note ${row.kind} over-${row.over}${row.isFailure ? ' failure' : ''}`;
  const mark = row.isFailure ? markup`<span class="mark">failed</span>` : undefined;
  const content =
    row.body === undefined
      ? markup`<div class="${classes}">${row.text}${mark}</div>`
      : markup`<details class="${classes}"><summary>${row.text}${mark}</summary><pre>${row.body}</pre></details>`;
  return markup`<div class="t" style="grid-row: ${index + 1}">${stamp(row.t)}</div>
<div class="cell" id="row-${index}" style="grid-row: ${index + 1}" data-entry="${row.entry}">${content}</div>`;
}

function bracket(pair: ReportPair, index: number): SafeHtml {
  const classes = `span${pair.isFailure ? ' failure' : ''}`;
  const rows = `${pair.request + 1} / ${pair.response + 1}`;
  const title = `request to response: ${milliseconds(pair.elapsedMs)}`;
  return markup`<div class="${classes}" style="grid-row: ${rows}; grid-column: ${pair.track + 2}" data-pair="${index}" data-response="row-${pair.response}" title="${title}"></div>`;
}

/** A failure as the summary links it: the label, with the failure's words when the label lacks them. */
function failureText(row: ArrowRow | NoteRow): string {
  if (row.type === 'note') return row.text;
  const { label, failure } = row.summary;
  return failure === undefined || label.includes(failure) ? label : `${label} (${failure})`;
}

function isFailure(row: ArrowRow | NoteRow): boolean {
  return row.type === 'arrow' ? row.summary.failure !== undefined : row.isFailure;
}

function stamp(ms: number): string {
  return `+${(ms / 1000).toFixed(3)}s`;
}

function milliseconds(ms: number): string {
  return `${ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : Math.round(ms)} ms`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
