// `mcpwire lint <transcript.jsonl>`: checks a recorded transcript against the MCP spec, one
// finding per line (see ../wire/lint/ for the engine and its rules).

import type { Command } from 'commander';
import { coloursFor } from '../../terminal/colours.ts';
import { addExamples, defineCommand } from '../../define-command.ts';
import { RULES } from '../../wire/lint/rules.ts';
import type { LintCommandOptions } from '../../wire/lint/run-lint.ts';

/** What `mcpwire lint --help` says the command does. */
const DESCRIPTION =
  'Check a transcript (written by --record of list, call, read, get, complete or connect, or by mcpwire tap) ' +
  'against the MCP specification: the handshake and the negotiated revision, request ids in both directions, ' +
  "both sides' capabilities, progress and cancellation, the HTTP headers, the 2026-07-28 envelope, and every " +
  'message against the official JSON Schema of its revision. Prints one finding per line (file:line rule ' +
  'severity message (requirement)) and a summary. Exits 1 when an error was found, 0 otherwise (warnings ' +
  'alone: 0), 2 for a file that is no transcript.';

/** The `lint` command. */
export function lintCommand(): Command {
  const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
  const command = defineCommand('lint')
    .summary('check a recorded transcript against the MCP spec, rule by rule')
    .description(DESCRIPTION)
    .argument('<transcript>', 'the transcript file (JSONL) to check')
    .option('--json', 'print the findings as a JSON array on stdout (no summary line)')
    .option('--rule <id>', 'report only this rule (repeatable); see the rules below', collect)
    .option('--ignore <id>', 'do not report this rule (repeatable)', collect)
    .action(async (file: string, options: LintCommandOptions) => {
      const { runLint } = await import('../../wire/lint/run-lint.ts');
      process.exitCode = await runLint(file, options);
    });
  command.addHelpText('after', rulesHelp());
  return addExamples(command, [
    ['mcpwire list --record session.jsonl -- ./my-server', 'record a session with your server'],
    ['mcpwire lint session.jsonl', 'then check it: one line per finding, exit 1 on an error'],
    ['mcpwire lint session.jsonl --ignore unknown-method', 'the same without one rule'],
    ['mcpwire lint session.jsonl --json | jq length', 'the findings as JSON, for a script'],
  ]);
}

/** The "Rules:" section: id, severity, what it finds and the requirements it cites, wrapped to 100 columns. */
function rulesHelp(): string {
  const colours = coloursFor(process.stdout);
  const width = Math.max(...RULES.map((rule) => rule.id.length)) + 2;
  const indent = ' '.repeat(2 + width + 9);
  const lines = RULES.map((rule) => {
    const cited = Object.values(rule.requirements as Record<string, string>);
    const text = `${rule.summary}${cited.length === 0 ? '' : ` (${cited.join(', ')})`}`;
    const [first = '', ...rest] = wrap(text, 100 - indent.length);
    const severity = rule.severity.padEnd(9);
    return [
      `  ${colours.green(rule.id.padEnd(width))}${severity}${first}`,
      ...rest.map((line) => `${indent}${line}`),
    ].join('\n');
  });
  return `\n${colours.bold('Rules:')} (the default severity; requirement ids from the 2025-11-25 and 2026-07-28 checklists)\n${lines.join('\n')}`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  if (current !== '') lines.push(current);
  return lines;
}
