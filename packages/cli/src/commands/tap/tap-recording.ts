// What a tap does with what it sees: the recorder and its sinks (the --record file, live lint), and
// where its diagnostics go (stderr, or the --log file). Nothing here writes to stdout: over stdio
// that is the host's wire.

import { createWriteStream, type WriteStream } from 'node:fs';
import { coloursFor } from '../../terminal/colours.ts';
import { CliError, ExitCode } from '../../exit-code.ts';
import { openFileSink, WireRecorder, type RecordingSubject, type WireSink } from '../../wire/recorder.ts';
import { Redactor } from '../../wire/redact.ts';

/** The options every tap takes, stdio or HTTP. */
export interface TapWireOptions {
  /** Write the transcript here (JSONL). */
  record?: string;
  /** Write diagnostics (lint findings, the tap's own notes) to this file, appended, instead of stderr. */
  log?: string;
  /** JSONPath expressions to redact in the recording, besides the default credential rules. */
  redact?: string[];
  /** Check the traffic as it passes and report each finding as one line. */
  lint: boolean;
  /** A lock file of `mcpwire pin`: each listed definition that differs from it is reported. */
  pin?: string;
}

/** An open tap recording. */
export interface TapRecording {
  recorder: WireRecorder;
  /** Writes one diagnostic line (a newline is added) to stderr or the --log file. */
  diagnose: (line: string) => void;
  /** Closes the recorder (the transcript is complete) and the log. Idempotent. */
  close: () => Promise<void>;
}

/**
 * Opens the recording `options` ask for: the redactor (a bad --redact path throws UsageError), the
 * log and the --record file (each fails early, exit 2, when it cannot be written), and the lint sink.
 * `subject.clock`, when given, stamps the entries (see WireRecorder).
 */
export async function openTapRecording(
  subject: Omit<RecordingSubject, 'recorder'> & { clock?: () => number },
  options: TapWireOptions,
): Promise<TapRecording> {
  const { clock, ...recorded } = subject;
  const redactor = new Redactor(options.redact ?? []);
  const log = options.log === undefined ? undefined : await openLog(options.log);
  const output: Pick<WriteStream, 'write'> = log ?? process.stderr;
  const diagnose = (line: string): void => void output.write(`${line}\n`);
  const sinks: WireSink[] = [];
  if (options.record !== undefined) sinks.push(await openFileSink(options.record));
  if (options.lint)
    sinks.push(await openLintSink(diagnose, { file: options.record, hasColour: log === undefined }));
  if (options.pin !== undefined) sinks.push(await openPin(options.pin, diagnose, log === undefined));
  const recorder = new WireRecorder(
    { recorder: 'mcpwire tap', ...recorded },
    { sinks, redactor, ...(clock === undefined ? {} : { clock }) },
  );
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await recorder.close();
      if (log !== undefined) await new Promise<void>((resolve) => log.end(() => resolve()));
    })());
  return { recorder, diagnose, close };
}

/**
 * The live lint: each finding as one line, as `mcpwire lint` prints it, placed at its line of the
 * --record file when there is one (without one, a line number would point nowhere).
 */
async function openLintSink(
  diagnose: (line: string) => void,
  where: { file: string | undefined; hasColour: boolean },
): Promise<WireSink> {
  const { lintSink, formatFinding } = await import('../../wire/lint/index.ts');
  const options = where.hasColour ? { colours: coloursFor(process.stderr) } : {};
  return lintSink((finding) => {
    const { line, ...placeless } = finding;
    const text =
      where.file === undefined || line === undefined
        ? formatFinding(placeless, undefined, options)
        : formatFinding({ ...placeless, line }, where.file, options);
    diagnose(`mcpwire tap: ${text}`);
  });
}

/** The --pin check: each finding as one line, as `mcpwire check` prints it. */
async function openPin(
  file: string,
  diagnose: (line: string) => void,
  hasColour: boolean,
): Promise<WireSink> {
  const { openPinSink } = await import('../../check/pin-sink.ts');
  const { formatCheckFinding } = await import('../../check/check-output.ts');
  const colours = hasColour ? coloursFor(process.stderr) : undefined;
  return openPinSink(file, (finding) => diagnose(`mcpwire tap: ${formatCheckFinding(finding, colours)}`));
}

async function openLog(file: string): Promise<WriteStream> {
  const stream = createWriteStream(file, { flags: 'a', mode: 0o600 });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error) =>
      reject(new CliError(`cannot write the log to ${file}: ${error.message}`, ExitCode.usage)),
    );
  });
  // A log that fails later (disk full) must not take the host's server down with it.
  stream.on('error', () => {});
  return stream;
}
