// What `mcpwire report` runs: read and parse a transcript, turn it into the HTML sequence diagram
// or (with --har) a HAR 1.2 log, and write that beside the transcript, to a file, or to stdout.

import { readFile, writeFile } from 'node:fs/promises';
import { PACKAGE_VERSION } from '../../package-info.ts';
import { CliError, ExitCode, UsageError, type ExitCodeValue } from '../../exit-code.ts';
import { cutNotices, parseTranscript, TranscriptError, type Transcript } from '../../wire/transcript.ts';
import { toHar } from './har.ts';
import { toReportHtml } from './report-html.ts';
import { toReportModel } from './report-model.ts';

/** What `mcpwire report` was asked for. */
export interface WriteReportOptions {
  /** A file, `-` for stdout, or undefined for the transcript's path with `.html` (`.har`). */
  output?: string;
  isHar: boolean;
}

/**
 * Writes the report of the transcript in `file` and resolves with exit code 0. Rejects with a
 * UsageError (exit 2) for a file that cannot be read, is no transcript, or (HAR) was recorded over stdio.
 */
export async function writeReport(file: string, options: WriteReportOptions): Promise<ExitCodeValue> {
  const transcript = await readTranscript(file);
  for (const notice of cutNotices(transcript, file)) process.stderr.write(`mcpwire report: ${notice}\n`);
  const extension = options.isHar ? '.har' : '.html';
  const output = options.output ?? defaultOutput(file, extension);
  let text: string;
  let summary: string;
  if (options.isHar) {
    if (transcript.header.transport !== 'http')
      throw new UsageError(
        `--har needs an HTTP recording, and ${file} was recorded over stdio (${transcript.header.target}); ` +
          'record one against a URL, e.g. "mcpwire list http://127.0.0.1:3000/mcp --record session.jsonl"',
      );
    const har = toHar(transcript, { creator: { name: 'mcpwire', version: PACKAGE_VERSION } });
    text = `${JSON.stringify(har, null, 2)}\n`;
    summary = `${har.log.entries.length} HTTP exchange${har.log.entries.length === 1 ? '' : 's'}`;
  } else {
    const model = toReportModel(transcript);
    text = toReportHtml(model);
    const { messages, failures } = model.counts;
    summary = `${messages} message${messages === 1 ? '' : 's'}, ${failures} failure${failures === 1 ? '' : 's'}`;
  }
  if (output === '-') {
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(text, (error) => (error ? reject(error) : resolve())),
    );
    return ExitCode.ok;
  }
  try {
    await writeFile(output, text, { mode: 0o600 });
  } catch (error) {
    throw new CliError(
      `cannot write ${output}: ${(error as Error).message} (choose another file with -o <file>, or -o - for stdout)`,
      ExitCode.usage,
    );
  }
  process.stdout.write(`wrote ${output} (${summary})\n`);
  return ExitCode.ok;
}

/** `session.jsonl` → `session.html`; a name without `.jsonl` or `.json` gets the extension added. */
export function defaultOutput(file: string, extension: string): string {
  return file.replace(/\.jsonl?$/i, '') + extension;
}

async function readTranscript(file: string): Promise<Transcript> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new UsageError(
      `cannot read the transcript ${file}: ${reason} (record one with --record <file.jsonl> on list, call, read, get, complete or connect)`,
    );
  }
  try {
    return parseTranscript(text, file);
  } catch (error) {
    if (error instanceof TranscriptError) throw new UsageError(error.message);
    throw error;
  }
}
