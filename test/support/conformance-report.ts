// Reading scripts/conformance.mjs's report, for tests that excuse some failures by a stated reason.

/** One failed scenario run of the report's UNEXPECTED FAILURES: `server <scenario> @ <version>` and its check messages. */
export interface FailedRun {
  scenario: string;
  version: string;
  messages: string[];
  problems: string[];
}

/** Reads the UNEXPECTED FAILURES section of scripts/conformance.mjs's report (results.mjs formatFailure). */
export function parseUnexpected(output: string): FailedRun[] {
  const start = output.indexOf('\nUNEXPECTED FAILURES:\n');
  if (start === -1) return [];
  const runs: FailedRun[] = [];
  for (const line of output.slice(start).split('\n').slice(2)) {
    const head = /^(?:server|client) (\S+) @ (\S+):$/.exec(line);
    if (head !== null) runs.push({ scenario: head[1]!, version: head[2]!, messages: [], problems: [] });
    else if (line.startsWith('  - ')) runs.at(-1)?.messages.push(line.replace(/^ {2}- \S+ \([^)]*\): /, ''));
    else if (line.startsWith('  ! ')) runs.at(-1)?.problems.push(line.slice(4));
    else if (!line.startsWith('      ')) break;
  }
  return runs;
}
