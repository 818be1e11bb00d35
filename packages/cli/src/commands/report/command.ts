// `mcpwire report <transcript>`: a recorded session as one self-contained HTML sequence diagram, or
// with --har its HTTP exchanges as a HAR 1.2 file for browser devtools and HAR viewers.

import type { Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';

interface ReportCommandOptions {
  output?: string;
  har?: boolean;
}

/** What `mcpwire report --help` says the command does. */
const DESCRIPTION =
  'Draw a transcript (written by --record on list, call, read, get, complete and connect) as a sequence ' +
  'diagram in one HTML file that needs no network: a lane for the client and one for the server, each ' +
  'message an arrow in transcript order with its label (#3 tools/call create_issue, #3 result, ' +
  '#3 error -32602), notifications dashed, each request bracketed to its response with the time between, ' +
  'spawn, exit, stderr and HTTP status as notes, invalid lines marked, and every message expandable to ' +
  'its JSON. With --har, write the HTTP exchanges of a transcript recorded against a URL as HAR 1.2.';

/** The `report` command. */
export function reportCommand(): Command {
  const command = defineCommand('report')
    .summary('draw a recorded session as an HTML sequence diagram, or export it as HAR')
    .description(DESCRIPTION)
    .argument('<transcript>', 'a transcript file (.jsonl) written by --record')
    .option(
      '-o, --output <file>',
      "where to write it: a file, or - for stdout (default: the transcript's path with .html, or .har with --har)",
    )
    .option('--har', 'write the HTTP exchanges as HAR 1.2 instead (needs a transcript recorded over HTTP)')
    .action(async (transcript: string, options: ReportCommandOptions) => {
      const { writeReport } = await import('./write-report.ts');
      process.exitCode = await writeReport(transcript, {
        ...(options.output === undefined ? {} : { output: options.output }),
        isHar: options.har === true,
      });
    });
  return addExamples(command, [
    [
      'mcpwire call echo message=hi --record session.jsonl -- mcpwire serve everything',
      'record a session (any client command takes --record)',
    ],
    ['mcpwire report session.jsonl', 'write session.html beside it and open it in a browser'],
    ['mcpwire report session.jsonl -o - | wc -c', 'the HTML on stdout'],
    [
      'mcpwire list http://127.0.0.1:3000/mcp --record http.jsonl && mcpwire report http.jsonl --har',
      "an HTTP session as http.har, for a browser's network panel",
    ],
  ]);
}
