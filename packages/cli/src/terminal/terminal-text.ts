// The one way text from a peer (a server's names, descriptions, content, errors, stderr; a project's
// config file) reaches a terminal or text output: every control character that a terminal acts on
// shown as a visible escape instead. Pure.

/** How {@link toTerminalText} treats line breaks. */
export interface TerminalTextOptions {
  /** Keep `\n` and `\t` as they are (content, multi-line messages); otherwise they are escaped too. */
  keepNewlines?: boolean;
}

/**
 * C0 controls (ESC starts CSI/OSC sequences: fake OSC 8 links, OSC 52 clipboard writes, cursor moves
 * that hide text), DEL, C1 controls (U+009B is a one-character CSI on some terminals), and the bidi
 * overrides and isolates (U+202A..U+202E, U+2066..U+2069) that make text display in another order
 * than it reads.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_WITH_LINES = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every character a terminal would act on written visibly: `\xHH` for C0, DEL and C1
 * (ESC is `\x1b`), `\uHHHH` for the bidi controls; `\n` and `\t` stay with `keepNewlines`. Colour
 * codes of our own are added after this, never before. Idempotent on its output.
 */
export function toTerminalText(text: string, options: TerminalTextOptions = {}): string {
  return text.replace(options.keepNewlines === true ? UNSAFE : UNSAFE_WITH_LINES, escapeOne);
}

/**
 * JSON text (from `JSON.stringify`) with DEL, C1 and the bidi controls written as `\uHHHH` escapes:
 * the same JSON value (it parses back to the exact strings), safe to show on a terminal.
 * JSON.stringify already escapes C0; these characters occur only inside strings.
 */
export function toTerminalJson(json: string): string {
  return json.replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (char) => `\\u${hex(char, 4)}`);
}

function escapeOne(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`;
}

function hex(char: string, width: number): string {
  return char.charCodeAt(0).toString(16).padStart(width, '0');
}
