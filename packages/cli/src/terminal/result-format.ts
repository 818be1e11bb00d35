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
import { formatRows, type RowLayout } from './row-layout.ts';
import { toArgumentShapes } from './schema-shape.ts';
import { toTerminalJson, toTerminalText } from './terminal-text.ts';
import { toCappedJson } from '../wire/json-depth.ts';

/**
 * `name  description (arguments)` rows for tools: each argument's shape, `?` after an optional one
 * (see toArgumentShapes); laid out by `layout` (see formatRows).
 */
export function formatTools(tools: readonly Tool[], colours: Colours, layout: RowLayout = {}): string {
  return formatRows(
    tools.map((tool) => ({
      name: line(tool.name),
      text: description(tool.description),
      args: toArgumentShapes(tool.inputSchema),
    })),
    colours,
    layout,
  );
}

/** `uri  name (mimeType)` rows. */
export function formatResources(
  resources: readonly Resource[],
  colours: Colours,
  layout: RowLayout = {},
): string {
  return formatRows(
    resources.map((resource) => ({
      name: line(resource.uri),
      text: resourceLabel(resource.name, resource.mimeType),
    })),
    colours,
    layout,
  );
}

/** `uriTemplate  name (mimeType)` rows. */
export function formatTemplates(
  templates: readonly ResourceTemplate[],
  colours: Colours,
  layout: RowLayout = {},
): string {
  return formatRows(
    templates.map((template) => ({
      name: line(template.uriTemplate),
      text: resourceLabel(template.name, template.mimeType),
    })),
    colours,
    layout,
  );
}

/** `name  description (arguments)` rows, `?` after an optional argument; laid out by `layout`. */
export function formatPrompts(prompts: readonly Prompt[], colours: Colours, layout: RowLayout = {}): string {
  return formatRows(
    prompts.map((prompt) => ({
      name: line(prompt.name),
      text: description(prompt.description),
      args: (prompt.arguments ?? []).map(
        (argument) => `${line(argument.name)}${argument.required ? '' : '?'}`,
      ),
    })),
    colours,
    layout,
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

/** A server's description: each line escaped (tabs and carriage returns too), the line breaks kept. */
function description(text: string | undefined): string {
  return (text ?? '').split(/\r?\n/).map(line).join('\n');
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
