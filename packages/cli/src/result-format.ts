// How the one-shot commands and `connect` show MCP results to a person (the `--json` output is the
// result itself): one line per listed item, text content as it is, binary content described. Every
// string of the server's passes through toTerminalText before our colours are added. Pure.

import type {
  CallToolResult,
  CompleteResult,
  ContentBlock,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from 'mcpwire';
import type { Colours } from './colours.ts';
import { toTerminalJson, toTerminalText } from './terminal-text.ts';
import { toCappedJson } from './wire/json-depth.ts';

/** The widest first column before descriptions stop lining up. */
const MAX_NAME_WIDTH = 36;

/** `name  description` lines for tools; the arguments each takes, required ones marked with `*`. */
export function formatTools(tools: readonly Tool[], colours: Colours): string {
  return formatRows(
    tools.map((tool) => [line(tool.name), describe(tool.description, argumentsOf(tool.inputSchema))]),
    colours,
  );
}

/** `uri  name (mimeType)` lines. */
export function formatResources(resources: readonly Resource[], colours: Colours): string {
  return formatRows(
    resources.map((resource) => [line(resource.uri), resourceLabel(resource.name, resource.mimeType)]),
    colours,
  );
}

/** `uriTemplate  name (mimeType)` lines. */
export function formatTemplates(templates: readonly ResourceTemplate[], colours: Colours): string {
  return formatRows(
    templates.map((template) => [
      line(template.uriTemplate),
      resourceLabel(template.name, template.mimeType),
    ]),
    colours,
  );
}

/** `name  description` lines; the arguments each takes, required ones marked with `*`. */
export function formatPrompts(prompts: readonly Prompt[], colours: Colours): string {
  return formatRows(
    prompts.map((prompt) => [
      line(prompt.name),
      describe(
        prompt.description,
        (prompt.arguments ?? []).map((argument) => `${line(argument.name)}${argument.required ? '*' : ''}`),
      ),
    ]),
    colours,
  );
}

/** The content blocks of a tool result, then its structured content when no block is text. */
export function formatCallResult(result: CallToolResult, colours: Colours): string {
  const blocks = result.content.map((block) => formatBlock(block, colours));
  const hasText = result.content.some((block) => block.type === 'text');
  if (result.structuredContent !== undefined && !hasText)
    blocks.push(toTerminalJson(toCappedJson(result.structuredContent, 2)));
  return joinLines(blocks);
}

/**
 * Each text content as it is; each blob described, never its bytes, ending with `blobHint` (how to
 * get them; default `use --json to get it`).
 */
export function formatReadResult(
  result: ReadResourceResult,
  colours: Colours,
  blobHint = 'use --json to get it',
): string {
  return joinLines(
    result.contents.map((item) =>
      'text' in item
        ? content(item.text)
        : colours.dim(
            `[blob ${line(item.mimeType ?? 'application/octet-stream')}, ${base64Bytes(item.blob)} bytes: ${blobHint}]`,
          ),
    ),
  );
}

/** The prompt's description, then each message as `role: content`. */
export function formatPromptResult(result: GetPromptResult, colours: Colours): string {
  const lines = result.description === undefined ? [] : [colours.dim(content(result.description))];
  for (const message of result.messages)
    lines.push(`${colours.bold(`${line(message.role)}:`)} ${formatBlock(message.content, colours)}`);
  return joinLines(lines);
}

/** One value per line; a dimmed note when the server has more than it sent. */
export function formatCompletion(result: CompleteResult, colours: Colours): string {
  const { values, total, hasMore } = result.completion;
  const lines = values.map(line);
  if (hasMore === true || (total !== undefined && total > values.length))
    lines.push(colours.dim(`(${total === undefined ? 'more' : `${total - values.length} more`} not shown)`));
  return joinLines(lines);
}

/** One content block as text: text as it is, the rest as a bracketed description. */
export function formatBlock(block: ContentBlock, colours: Colours): string {
  switch (block.type) {
    case 'text':
      return content(block.text);
    case 'image':
    case 'audio':
      return colours.dim(`[${block.type} ${line(block.mimeType)}, ${base64Bytes(block.data)} bytes]`);
    case 'resource_link':
      return colours.dim(`[link ${line(block.uri)}${block.name ? ` ${line(block.name)}` : ''}]`);
    case 'resource': {
      const { resource } = block;
      const head = colours.dim(`[resource ${line(resource.uri)}]`);
      return 'text' in resource
        ? `${head}\n${content(resource.text)}`
        : `${head} ${colours.dim(`${base64Bytes(resource.blob)} bytes`)}`;
    }
    default:
      // A block type of a later revision: named, never printed raw.
      return colours.dim(`[${line(String((block as { type?: unknown }).type))}]`);
  }
}

/** A server's single-line string (a name, URI, MIME type): every control shown escaped, line breaks too. */
function line(text: string): string {
  return toTerminalText(text);
}

/** A server's text content: controls shown escaped, its line breaks and tabs kept. */
function content(text: string): string {
  return toTerminalText(text, { keepNewlines: true });
}

function formatRows(rows: ReadonlyArray<readonly [string, string]>, colours: Colours): string {
  const width = Math.min(MAX_NAME_WIDTH, Math.max(0, ...rows.map(([name]) => name.length)));
  return joinLines(
    rows.map(([name, text]) =>
      text === '' ? colours.cyan(name) : `${colours.cyan(name.padEnd(width))}  ${text}`,
    ),
  );
}

function describe(description: string | undefined, args: readonly string[]): string {
  const firstLine = line((description ?? '').split('\n')[0]!.trim());
  if (args.length === 0) return firstLine;
  const list = `(${args.join(', ')})`;
  return firstLine === '' ? list : `${firstLine} ${list}`;
}

/** A tool's arguments; none for a server that sent no usable inputSchema (a broken server still lists). */
function argumentsOf(schema: Tool['inputSchema'] | undefined): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.keys(schema.properties ?? {}).map((name) => `${line(name)}${required.has(name) ? '*' : ''}`);
}

function resourceLabel(name: string, mimeType: string | undefined): string {
  return mimeType === undefined ? line(name) : `${line(name)} (${line(mimeType)})`;
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
