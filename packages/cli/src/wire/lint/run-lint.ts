// `mcpwire lint <transcript>` at work: read and parse the file, lint it, keep the rules asked for,
// print one line per finding and a summary (or the findings as JSON), and say how it went.

import { readFile } from 'node:fs/promises';
import { coloursFor } from '../../terminal/colours.ts';
import { CliError, ExitCode, UsageError, type ExitCodeValue } from '../../exit-code.ts';
import { cutNotices, parseTranscript, TranscriptError } from '../transcript.ts';
import { formatFinding, type Finding } from './finding.ts';
import { lintTranscript } from './lint-sink.ts';
import { lookupRule, RULES } from './rules.ts';

/** The options of `mcpwire lint`. */
export interface LintCommandOptions {
  json?: boolean;
  rule?: string[];
  ignore?: string[];
}

/**
 * Lints `file` and prints the findings on stdout. Resolves with exit code 1 when an error was found,
 * 0 otherwise (warnings alone included). Throws a UsageError (exit 2) for an unknown rule id, a file
 * that cannot be read, or one that is no transcript (naming the line).
 */
export async function runLint(file: string, options: LintCommandOptions): Promise<ExitCodeValue> {
  const isShown = ruleFilter(options);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${file}: ${(error as Error).message}; pass a transcript written by --record or mcpwire tap`,
    );
  }
  let transcript;
  try {
    transcript = parseTranscript(text, file);
  } catch (error) {
    if (error instanceof TranscriptError) throw new CliError(error.message, ExitCode.usage, { cause: error });
    throw error;
  }
  for (const notice of cutNotices(transcript, file)) process.stderr.write(`mcpwire lint: ${notice}\n`);
  const malformed: Finding[] = (transcript.malformed ?? []).map(({ line, t, reason }) => ({
    rule: 'entry-malformed',
    severity: 'error',
    message: `${reason}; the entry was left out of the lint (a transcript written by --record or mcpwire tap has none)`,
    t,
    line,
  }));
  const findings = [...malformed, ...lintTranscript(transcript, { lines: entryLines(text, malformed) })]
    .filter((finding) => isShown(finding.rule))
    .sort((one, other) => (one.line ?? 0) - (other.line ?? 0));
  if (options.json === true) process.stdout.write(`${JSON.stringify(findings, null, 2)}\n`);
  else {
    const colours = coloursFor(process.stdout);
    const lines = findings.map((finding) => formatFinding(finding, file, { colours }));
    process.stdout.write(`${[...lines, summaryOf(file, findings, transcript.entries.length)].join('\n')}\n`);
  }
  return findings.some((finding) => finding.severity === 'error') ? ExitCode.failed : ExitCode.ok;
}

/** Which rules to report: only the --rule ones when given, minus the --ignore ones. */
function ruleFilter(options: LintCommandOptions): (rule: string) => boolean {
  const only = options.rule ?? [];
  const ignored = options.ignore ?? [];
  for (const [flag, ids] of [
    ['--rule', only],
    ['--ignore', ignored],
  ] as const) {
    const unknown = ids.find((id) => lookupRule(id) === undefined);
    if (unknown !== undefined)
      throw new UsageError(
        `${flag} ${JSON.stringify(unknown)}: no such rule; the rules are ${RULES.map((rule) => rule.id).join(', ')}`,
      );
  }
  return (rule) => (only.length === 0 || only.includes(rule)) && !ignored.includes(rule);
}

/**
 * The 1-based line of each entry, as parseTranscript reads them (blank lines skipped, the header
 * first, the entries it left out as malformed too).
 */
function entryLines(text: string, malformed: readonly Finding[]): number[] {
  const leftOut = new Set(malformed.map((finding) => finding.line));
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const numbers: number[] = [];
  for (let index = 1; index < lines.length; index++)
    if (lines[index]!.trim() !== '' && !leftOut.has(index + 1)) numbers.push(index + 1);
  return numbers;
}

function summaryOf(file: string, findings: readonly Finding[], entries: number): string {
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  const warnings = findings.length - errors;
  const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
  const scanned = plural(entries, 'entry', 'entries');
  if (findings.length === 0) return `${file}: no findings in ${scanned}`;
  return `${file}: ${plural(errors, 'error', 'errors')}, ${plural(warnings, 'warning', 'warnings')} in ${scanned}`;
}
