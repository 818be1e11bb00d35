// HTML built from templates whose interpolations are escaped unless they are already HTML: the
// report shows peer data (a server's tool output, a client's arguments), which must stay text.
// The tag is `markup`, not `html`, so the formatter leaves the whitespace of the output alone.

/** A piece of markup that is safe to insert as it is: built by {@link markup}, or written by us. */
export class SafeHtml {
  readonly #text: string;

  /** Wraps markup we wrote ourselves (the style sheet, the script); never text from a transcript. */
  constructor(text: string) {
    this.#text = text;
  }

  toString(): string {
    return this.#text;
  }
}

/** What an interpolation may be: text (escaped), a number, markup, a list of these, or nothing. */
export type HtmlValue = string | number | SafeHtml | undefined | readonly HtmlValue[];

/**
 * A tagged template: `markup\`<b>${name}</b>\`` escapes `name` (a string or number) for both element
 * text and quoted attribute values; a SafeHtml or an array of them goes in as it is; undefined is empty.
 */
export function markup(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let index = 0; index < values.length; index++)
    out += toMarkup(values[index]) + (strings[index + 1] ?? '');
  return new SafeHtml(out);
}

/** Concatenates markup without copying it more than once (a report has thousands of rows). */
export function joinHtml(parts: readonly SafeHtml[], separator = ''): SafeHtml {
  return new SafeHtml(parts.map(String).join(separator));
}

/** Escapes `&`, `<`, `>`, `"` and `'`: safe in element text and in single- or double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function toMarkup(value: HtmlValue): string {
  if (value === undefined) return '';
  if (value instanceof SafeHtml) return value.toString();
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return escapeHtml(value);
  return value.map(toMarkup).join('');
}
