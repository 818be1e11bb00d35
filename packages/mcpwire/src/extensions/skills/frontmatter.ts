// SKILL.md frontmatter: splitting the `---` block from the body, and a small YAML reader for what
// frontmatter holds (maps, lists of scalars, quoted and block strings, YAML 1.2 core-schema scalars).
// Server and client use the same reader, so an entry's frontmatter and a file's compare equal.

/** A SKILL.md split into its frontmatter text and the markdown body; undefined without a leading block. */
export function splitFrontmatter(text: string): { yaml: string; body: string } | undefined {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(source);
  if (!match) return undefined;
  return { yaml: match[1]!.replace(/\r\n/g, '\n'), body: source.slice(match[0].length) };
}

/** Parses frontmatter YAML into a plain object. Throws SyntaxError naming the line it cannot read. */
export function parseFrontmatter(yaml: string): Record<string, unknown> {
  const lines = yaml.split('\n');
  const reader = { lines, at: 0 };
  const value = readBlock(reader, 0);
  if (reader.at < lines.length)
    throw new SyntaxError(`Frontmatter line ${reader.at + 1}: unexpected indentation`);
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SyntaxError('Frontmatter must be a mapping of keys to values');
  return value as Record<string, unknown>;
}

interface Reader {
  lines: string[];
  at: number;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function isBlank(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === '' || trimmed.startsWith('#');
}

function skipBlank(reader: Reader): void {
  while (reader.at < reader.lines.length && isBlank(reader.lines[reader.at]!)) reader.at++;
}

/** A mapping or a list whose lines are indented exactly `indent`; undefined if nothing is there. */
function readBlock(reader: Reader, indent: number): unknown {
  skipBlank(reader);
  const first = reader.lines[reader.at];
  if (first === undefined || indentOf(first) < indent) return undefined;
  const isList = first.trimStart().startsWith('- ') || first.trim() === '-';
  const map: Record<string, unknown> = {};
  const list: unknown[] = [];
  const own = indentOf(first);
  while (reader.at < reader.lines.length) {
    skipBlank(reader);
    const line = reader.lines[reader.at];
    if (line === undefined || indentOf(line) < own) break;
    if (indentOf(line) > own)
      throw new SyntaxError(`Frontmatter line ${reader.at + 1}: unexpected indentation`);
    const content = line.trim();
    reader.at++;
    if (isList) {
      if (!content.startsWith('-')) throw new SyntaxError(`Frontmatter line ${reader.at}: expected "- "`);
      list.push(readValue(reader, content.slice(1).trim(), own));
      continue;
    }
    const colon = findColon(content);
    if (colon === -1) throw new SyntaxError(`Frontmatter line ${reader.at}: expected "key: value"`);
    const key = unquote(content.slice(0, colon).trim());
    map[key] = readValue(reader, content.slice(colon + 1).trim(), own);
  }
  return isList ? list : map;
}

/** The first `: ` (or a final `:`) outside quotes. */
function findColon(content: string): number {
  let quote: string | undefined;
  for (let i = 0; i < content.length; i++) {
    const char = content[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === ':' && (i === content.length - 1 || content[i + 1] === ' ')) return i;
  }
  return -1;
}

/** The value after a key or a dash: inline, a block string, or a nested block. */
function readValue(reader: Reader, inline: string, indent: number): unknown {
  if (inline === '') return readBlock(reader, indent + 1) ?? null;
  if (/^[|>][+-]?$/.test(inline)) return readBlockString(reader, inline, indent);
  return readScalar(inline);
}

function readBlockString(reader: Reader, style: string, indent: number): string {
  const parts: string[] = [];
  let own: number | undefined;
  while (reader.at < reader.lines.length) {
    const line = reader.lines[reader.at]!;
    if (line.trim() !== '') {
      if (indentOf(line) <= indent) break;
      own ??= indentOf(line);
    }
    parts.push(line.slice(own ?? 0));
    reader.at++;
  }
  while (parts.length > 0 && parts[parts.length - 1]!.trim() === '') parts.pop();
  const text = style.startsWith('|') ? parts.join('\n') : parts.join(' ').replace(/ ?\n ?/g, '\n');
  return style.endsWith('-') ? text : `${text}\n`;
}

/** `text` up to a ` #` comment (whitespace, then `#`), found without a backtracking expression. */
function withoutTrailingComment(text: string): string {
  const at = text.search(/\s#/);
  return at === -1 ? text : text.slice(0, at).trimEnd();
}

function readScalar(text: string): unknown {
  const withoutComment = text.startsWith('"') || text.startsWith("'") ? text : withoutTrailingComment(text);
  const value = withoutComment.trim();
  if (value.startsWith('"') || value.startsWith("'")) return unquote(value);
  if (value.startsWith('[') && value.endsWith(']')) {
    const inner = value.slice(1, -1).trim();
    return inner === '' ? [] : inner.split(',').map((item) => readScalar(item.trim()));
  }
  if (value === 'null' || value === 'Null' || value === 'NULL' || value === '~') return null;
  if (/^(true|True|TRUE)$/.test(value)) return true;
  if (/^(false|False|FALSE)$/.test(value)) return false;
  if (/^[-+]?[0-9]+$/.test(value)) return Number.parseInt(value, 10);
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(value)) return Number(value);
  return value;
}

function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      return JSON.parse(text) as string;
    } catch {
      throw new SyntaxError(`Frontmatter: invalid double-quoted string ${text}`);
    }
  }
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'"))
    return text.slice(1, -1).replace(/''/g, "'");
  return text;
}
