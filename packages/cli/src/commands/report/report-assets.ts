// The report's style sheet and script, inlined into every report so the file needs no network.
// The script reads only the DOM (no transcript text is ever put inside <script>).

/** Colours the diagram uses; the screenshot test looks for the solid ones in the PNG. */
export const REPORT_COLOURS = {
  toServer: '#1565c0',
  toClient: '#6a1b9a',
  failure: '#c62828',
  lifeline: '#90a4ae',
  note: '#fff3c4',
} as const;

/** The CSS of a report. Layout is one CSS grid: a row per entry, brackets spanning rows. */
export const REPORT_STYLE = `
:root { --inset: 18%; --line-y: 21px; --track: 14px; color-scheme: light;
  --to-server: ${REPORT_COLOURS.toServer}; --to-client: ${REPORT_COLOURS.toClient};
  --failure: ${REPORT_COLOURS.failure}; --lifeline: ${REPORT_COLOURS.lifeline}; --note: ${REPORT_COLOURS.note}; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: #1c2430; background: #fff; }
code, pre, .t, .tag { font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
header.summary { padding: 12px 16px 8px; border-bottom: 1px solid #d5dbe1; }
header.summary h1 { margin: 0 0 4px; font-size: 18px; overflow-wrap: anywhere; }
header.summary p { margin: 2px 0; color: #4a5562; }
.failures a { color: var(--failure); margin-right: 10px; }
.controls button { font: inherit; margin: 6px 6px 0 0; padding: 2px 10px; border: 1px solid #b0bac5;
  border-radius: 4px; background: #f4f6f8; cursor: pointer; }
.grid { display: grid; padding: 0 16px;
  grid-template-columns: 6.5rem repeat(var(--tracks), var(--track)) minmax(0, 1fr); }
.lanes-head { position: sticky; top: 0; z-index: 2; background: #fff; border-bottom: 1px solid #d5dbe1; }
.lanes-head .heads { grid-column: -2 / -1; display: flex; justify-content: space-between;
  align-items: flex-end; padding: 6px 0; }
/* As wide as twice the inset, so each box is centred on its lifeline. */
.lane { width: calc(2 * var(--inset) - 8px); margin: 0 4px; padding: 3px 8px; border: 2px solid var(--lifeline);
  border-radius: 6px; background: #f4f6f8; text-align: center; overflow-wrap: anywhere; font-size: 12px; }
.lane b { display: block; font-size: 14px; }
.lanes-head .t { grid-column: 1; align-self: end; padding-bottom: 4px; color: #66717e; }
.t { grid-column: 1; padding: 4px 8px 0 0; text-align: right; font-size: 12px; line-height: 18px; color: #66717e; }
.cell { grid-column: -2 / -1; position: relative; padding: 4px 0 6px; min-width: 0; }
.cell::before, .cell::after { content: ""; position: absolute; top: 0; bottom: 0; width: 2px; background: var(--lifeline); }
.cell::before { left: calc(var(--inset) - 1px); }
.cell::after { right: calc(var(--inset) - 1px); }
.arrow { position: relative; z-index: 1; margin: 0 var(--inset); color: var(--to-server); }
.arrow.to-client { color: var(--to-client); }
.arrow.failure, .arrow.invalid { color: var(--failure); }
.arrow summary { display: block; list-style: none; position: relative; cursor: pointer; padding: 0 14px;
  line-height: 17px; border-bottom: 2px solid currentColor; text-align: center; white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; }
.arrow summary::-webkit-details-marker { display: none; }
.arrow.notification summary { border-bottom-style: dashed; }
.arrow.invalid summary { border-bottom-style: dotted; }
.arrow .head { position: absolute; right: -2px; top: 12px; width: 0; height: 0;
  border-top: 6px solid transparent; border-bottom: 6px solid transparent; border-left: 10px solid currentColor; }
.arrow.to-client .head { right: auto; left: -2px; border-left: 0; border-right: 10px solid currentColor; }
.label { font-weight: 600; }
.mark { margin-left: 6px; padding: 0 4px; border-radius: 3px; background: var(--failure); color: #fff; font-weight: 600; }
.detail, .ms, .tag { margin-left: 6px; color: #4a5562; font-weight: 400; }
.tag { font-size: 11px; }
.arrow pre, .note pre { margin: 4px 0 2px; padding: 6px 8px; max-height: 60vh; overflow: auto; color: #1c2430;
  background: #f4f6f8; border: 1px solid #d5dbe1; border-radius: 4px; font-size: 12px; white-space: pre-wrap;
  overflow-wrap: anywhere; text-align: left; }
.note { position: relative; z-index: 1; width: fit-content; max-width: 64%; margin: 0 auto; padding: 1px 8px;
  background: var(--note); border: 1px solid #e0c25a; border-radius: 4px; font-size: 12px; overflow-wrap: anywhere; }
.note summary { cursor: pointer; list-style: none; }
.note summary::-webkit-details-marker { display: none; }
.note.over-client { margin-left: calc(var(--inset) - 2em); max-width: 56%; }
.note.over-server { margin-right: calc(var(--inset) - 2em); margin-left: auto; max-width: 56%; }
.note.failure { border-color: var(--failure); color: var(--failure); }
.span { margin: var(--line-y) 3px calc(-1 * var(--line-y) - 2px) 3px; border: 2px solid var(--to-server);
  border-right: 0; border-radius: 3px 0 0 3px; z-index: 1; }
.span.failure { border-color: var(--failure); }
.linked { outline: 2px solid #f9a825; outline-offset: 1px; background: #fff8e1; }
.span.linked { background: #f9a825; }
`;

/**
 * The report's behaviour: hovering or focusing a request, its response or their bracket lights up
 * all three; clicking a bracket scrolls to the response; buttons open or close every message. It
 * sets `data-script="ready"` on <body> when it has run, which the tests read.
 */
export const REPORT_SCRIPT = `
(() => {
  'use strict';
  const byPair = new Map();
  for (const element of document.querySelectorAll('[data-pair]')) {
    const key = element.dataset.pair;
    if (!byPair.has(key)) byPair.set(key, []);
    byPair.get(key).push(element);
  }
  let lit = [];
  const light = (key) => {
    for (const element of lit) element.classList.remove('linked');
    lit = (key === undefined ? undefined : byPair.get(key)) || [];
    for (const element of lit) element.classList.add('linked');
  };
  const pairOf = (target) => {
    const element = target instanceof Element ? target.closest('[data-pair]') : null;
    return element === null ? undefined : element.dataset.pair;
  };
  const diagram = document.querySelector('.diagram');
  diagram.addEventListener('mouseover', (event) => light(pairOf(event.target)));
  diagram.addEventListener('focusin', (event) => light(pairOf(event.target)));
  diagram.addEventListener('mouseleave', () => light(undefined));
  diagram.addEventListener('click', (event) => {
    const span = event.target instanceof Element ? event.target.closest('.span') : null;
    const response = span === null ? null : document.getElementById(span.dataset.response);
    if (response !== null) response.scrollIntoView({ block: 'center' });
  });
  const setOpen = (isOpen) => {
    for (const details of diagram.querySelectorAll('details')) details.open = isOpen;
  };
  document.getElementById('expand-all').addEventListener('click', () => setOpen(true));
  document.getElementById('collapse-all').addEventListener('click', () => setOpen(false));
  document.body.dataset.script = 'ready';
})();
`;
