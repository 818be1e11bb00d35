// Lint as it happens: a WireSink that lints each entry as the recorder hands it over (`mcpwire tap`),
// and lintTranscript for a whole transcript read from a file (`mcpwire lint`).

import type { WireSink } from '../recorder.ts';
import type { Transcript } from '../transcript.ts';
import type { Finding } from './finding.ts';
import { Linter, type LinterOptions } from './linter.ts';

/**
 * A sink that lints entries as they arrive and calls `report` with each finding, in order, from
 * inside `entry` (so it must not throw). Lines count as the --record file of the same recorder
 * numbers them (the header is line 1). Findings that wait for the end come from `close`.
 */
export function lintSink(report: (finding: Finding) => void, options: LinterOptions = {}): WireSink {
  const linter = new Linter(options);
  let line = 1;
  return {
    entry(entry) {
      line++;
      for (const finding of linter.push(entry, line)) report(finding);
    },
    async close() {
      for (const finding of linter.finish()) report(finding);
    },
  };
}

/**
 * Lints a whole transcript: its findings ordered by line. `lines` gives each entry's line in the
 * file (parseTranscript skips blank lines); without it, entry i is taken to be on line i + 2.
 */
export function lintTranscript(
  transcript: Transcript,
  options: LinterOptions & { lines?: readonly number[] } = {},
): Finding[] {
  const linter = new Linter(options.revision === undefined ? {} : { revision: options.revision });
  const findings: Finding[] = [];
  transcript.entries.forEach((entry, index) => {
    findings.push(...linter.push(entry, options.lines?.[index] ?? index + 2));
  });
  findings.push(...linter.finish());
  // Stable: findings of one line keep the order the rules reported them in.
  return findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
