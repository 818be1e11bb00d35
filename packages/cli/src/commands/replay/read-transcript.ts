// Reading the transcript `mcpwire replay` was given: a usage error (exit 2) naming the file and the
// line when it cannot be read, or when it holds nothing to replay.

import { readFile } from 'node:fs/promises';
import { UsageError } from '../../exit-code.ts';
import {
  cutNotices,
  messagesOf,
  parseTranscript,
  TranscriptError,
  type Transcript,
} from '../../wire/transcript.ts';

/**
 * Reads and parses `file`. Throws UsageError for a file that is missing or unreadable, is no
 * transcript (see parseTranscript), or has no request from the client in it.
 */
export async function readTranscript(file: string): Promise<Transcript> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `cannot read the transcript ${file}: no such file; record one with --record <file.jsonl> or mcpwire tap`
        : `cannot read the transcript ${file}: ${(error as Error).message}`,
    );
  }
  let transcript: Transcript;
  try {
    transcript = parseTranscript(text, file);
  } catch (error) {
    if (error instanceof TranscriptError) throw new UsageError(error.message);
    throw error;
  }
  for (const notice of cutNotices(transcript, file)) process.stderr.write(`mcpwire replay: ${notice}\n`);
  const hasRequest = messagesOf(transcript).some(
    ({ from, message }) => from === 'client' && 'method' in message && 'id' in message,
  );
  if (!hasRequest)
    throw new UsageError(
      `${file} has no request from the client to replay (it holds ${transcript.entries.length} entries)`,
    );
  return transcript;
}
