// `mcpwire read --out <file>`: one content of a resources/read result saved as the user's file: a
// blob as its decoded bytes, text as UTF-8; an existing file only replaced with --force.

import { writeFile } from 'node:fs/promises';
import type { ReadResourceResult } from 'mcpwire';
import { CliError, ExitCode, UsageError } from '../../exit-code.ts';
import { toTerminalText } from '../../terminal/terminal-text.ts';

/** What {@link writeResourceContent} wrote. */
export interface WrittenContent {
  bytes: number;
  mimeType: string | undefined;
}

/** Options of {@link writeResourceContent}. */
export interface ResourceOutOptions {
  /** The file to create. */
  path: string;
  /** `--content <n>`: which content, from 1; needed when the result has more than one. */
  index?: number;
  /** Replace an existing file. */
  isForced: boolean;
}

/**
 * Writes one content of `result` (read from `uri`) to `options.path`, created with mode 0644 (the
 * user's data, not a secret; the umask applies). Rejects with a UsageError (exit 2), having written
 * nothing, when the result has several contents and no `index`, when `index` is out of range, or
 * when the file exists without `isForced`; and when the file cannot be written. A result with no
 * content is exit 1.
 */
export async function writeResourceContent(
  result: ReadResourceResult,
  uri: string,
  options: ResourceOutOptions,
): Promise<WrittenContent> {
  const item = pickContent(result, uri, options.index);
  const data = 'blob' in item ? Buffer.from(item.blob, 'base64') : Buffer.from(item.text, 'utf8');
  try {
    await writeFile(options.path, data, { flag: options.isForced ? 'w' : 'wx', mode: 0o644 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UsageError(`${options.path} exists: add --force to overwrite it`);
    throw new UsageError(
      `cannot write ${options.path} (${code ?? (error instanceof Error ? error.message : String(error))})`,
    );
  }
  return { bytes: data.length, mimeType: item.mimeType };
}

/** `wrote <n> bytes (<mimeType>) to <path>`: the line for stderr; the server's MIME type escaped. */
export function describeWritten(written: WrittenContent, path: string): string {
  const type = written.mimeType === undefined ? '' : ` (${toTerminalText(written.mimeType)})`;
  return `wrote ${written.bytes} bytes${type} to ${path}`;
}

function pickContent(
  result: ReadResourceResult,
  uri: string,
  index: number | undefined,
): ReadResourceResult['contents'][number] {
  const { contents } = result;
  const shown = toTerminalText(uri);
  if (contents.length === 0) throw new CliError(`${shown}: the server sent no content`, ExitCode.failed);
  if (index === undefined) {
    if (contents.length === 1) return contents[0]!;
    throw new UsageError(
      `${shown} has ${contents.length} contents and --out writes one: pick it with --content <1-${contents.length}> (--json shows them all)`,
    );
  }
  const item = contents[index - 1];
  if (item === undefined)
    throw new UsageError(`--content ${index}: ${shown} has ${contents.length} contents`);
  return item;
}
