// The transport events of a transcript as notes over the diagram's lanes: a stdio server's spawn,
// stderr and exit; each HTTP request, its status and the end of a stream; the recorder's own notes.

import type { EventEntry, Side } from '../../wire/transcript.ts';

/** A transport event drawn as a note box over one lane or both. */
export interface NoteRow {
  type: 'note';
  /** The entry's index in `transcript.entries`. */
  entry: number;
  t: number;
  kind: Exclude<EventEntry['type'], 'message' | 'invalid'>;
  /** The lane it sits over: the side that acted, or both for the recorder's notes. */
  over: Side | 'both';
  /** One line. */
  text: string;
  /** Shown in red with the text saying why: a failed exit, an HTTP error status, a broken stream. */
  isFailure: boolean;
  /** What expanding the note shows: headers, a whole stderr chunk, a body. */
  body?: string;
}

/** The longest one-line text of a note (the rest is in its body). */
const MAX_NOTE_TEXT = 160;

/**
 * The note for a transport event, or undefined for one not worth a row: the end of an HTTP body
 * that was not an event stream (its response already said all) and ended without an error.
 */
export function noteOf(
  entry: Exclude<EventEntry, { type: 'message' | 'invalid' }>,
  position: number,
  options: { isStream: boolean },
): NoteRow | undefined {
  const base = { type: 'note', entry: position, t: entry.t, kind: entry.type } as const;
  switch (entry.type) {
    case 'spawn': {
      const line = [entry.command, ...entry.args].join(' ');
      const pid = entry.pid === undefined ? '' : ` (pid ${entry.pid})`;
      return {
        ...base,
        over: 'server',
        text: oneLine(`spawned ${line}${pid}`),
        isFailure: false,
        body: line,
      };
    }
    case 'exit': {
      const how = entry.signal === null ? `code ${String(entry.code)}` : `signal ${entry.signal}`;
      const isFailure = entry.signal === null && entry.code !== 0;
      return { ...base, over: 'server', text: `server exited with ${how}`, isFailure };
    }
    case 'stderr':
      return {
        ...base,
        over: 'server',
        text: oneLine(`stderr: ${entry.text}`),
        isFailure: false,
        body: entry.text,
      };
    case 'http-request': {
      const path = pathOf(entry.url);
      const method = headerOf(entry.headers, 'mcp-method');
      const text = `${entry.method} ${path} (exchange ${entry.exchange})${method === undefined ? '' : ` mcp-method: ${method}`}`;
      return {
        ...base,
        over: 'client',
        text: oneLine(text),
        isFailure: false,
        body: headerLines(entry.url, entry.headers),
      };
    }
    case 'http-response': {
      const type = headerOf(entry.headers, 'content-type')?.split(';')[0];
      const text = `HTTP ${entry.status}${type === undefined ? '' : ` ${type}`} (exchange ${entry.exchange})`;
      const body = headerLines(undefined, entry.headers) + (entry.body ? `\n\n${entry.body}` : '');
      return { ...base, over: 'server', text, isFailure: entry.status >= 400, body };
    }
    case 'http-end':
      if (entry.error === undefined && !options.isStream) return undefined;
      return {
        ...base,
        over: 'both',
        text: oneLine(
          `exchange ${entry.exchange} ended${entry.error === undefined ? '' : `: ${entry.error}`}`,
        ),
        isFailure: false,
      };
    case 'note':
      return { ...base, over: 'both', text: oneLine(entry.text), isFailure: false, body: entry.text };
  }
}

/** A header's value whatever the recorded name's case (fetch records lowercase; a hand-made file may not). */
export function headerOf(headers: Record<string, string>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

function headerLines(url: string | undefined, headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return (url === undefined ? lines : [url, ...lines]).join('\n');
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= MAX_NOTE_TEXT ? line : `${line.slice(0, MAX_NOTE_TEXT - 1)}…`;
}
