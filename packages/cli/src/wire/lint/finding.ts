// A lint finding (one rule broken at one place of a transcript) and its one-line form, shared by
// `mcpwire lint` and `mcpwire tap`'s live lint.

import type { Colours } from '../../terminal/colours.ts';

/** One rule broken by one message or transport event. */
export interface Finding {
  /** The rule's stable id, e.g. `stdout-not-json` (see RULES). */
  rule: string;
  severity: 'error' | 'warning';
  /** What is wrong and what to do about it, in one sentence or two. */
  message: string;
  /** The checklist requirement broken, e.g. `LIFE-3` (2025-11-25) or `S26-META-2` (2026-07-28). */
  requirement?: string;
  /** When the entry happened: ms since the transcript's header. */
  t?: number;
  /** The transcript line of the entry, 1-based (the header is line 1). */
  line?: number;
}

/**
 * One line: `file:line rule severity message (requirement)`. Without `file` the place is `line N`,
 * without a line just the file; with neither it is left out. Newlines in the message become spaces,
 * so one finding is always one line. `colours` styles the severity (pass coloursFor(stream)).
 */
export function formatFinding(finding: Finding, file?: string, options: { colours?: Colours } = {}): string {
  const place =
    file === undefined
      ? finding.line === undefined
        ? undefined
        : `line ${finding.line}`
      : finding.line === undefined
        ? file
        : `${file}:${finding.line}`;
  const { colours } = options;
  const severity =
    colours === undefined
      ? finding.severity
      : finding.severity === 'error'
        ? colours.red(finding.severity)
        : colours.yellow(finding.severity);
  const message = finding.message.replace(/\s*\n\s*/g, ' ');
  const requirement = finding.requirement === undefined ? '' : ` (${finding.requirement})`;
  return [place, finding.rule, severity, `${message}${requirement}`]
    .filter((part) => part !== undefined)
    .join(' ');
}
