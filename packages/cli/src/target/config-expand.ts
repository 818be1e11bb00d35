// Variable expansion in host config entries, as the hosts do it: `${VAR}` and `${VAR:-default}`
// (Claude Code), `${env:VAR}`, `${userHome}` and `${workspaceFolder}` (VS Code). Pure.

import { UsageError } from '../exit-code.ts';

/** What a `${...}` may refer to besides environment variables. */
export interface ExpansionContext {
  env: Readonly<Record<string, string | undefined>>;
  /** The user's home directory, for `${userHome}`. */
  home: string;
  /** The folder the config belongs to (the parent of `.vscode/`), for `${workspaceFolder}`. */
  workspaceFolder: string;
  /** Names the entry in error messages: `server "x" in /path/mcp.json`. */
  where: string;
}

const REFERENCE = /\$\{([^{}]*)\}/g;

/**
 * Replaces every `${...}` in `text`. Throws UsageError for a variable that is unset and has no
 * default, and for VS Code's `${input:...}` (a prompted value: give it in the environment instead).
 */
export function expandVariables(text: string, context: ExpansionContext): string {
  return text.replace(REFERENCE, (_match, inner: string) => resolveReference(inner, context));
}

/** {@link expandVariables} over every string of a string array or record. */
export function expandAll<T extends readonly string[] | Readonly<Record<string, string>>>(
  values: T,
  context: ExpansionContext,
): T {
  if (Array.isArray(values)) return values.map((value: string) => expandVariables(value, context)) as never;
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, expandVariables(value as string, context)]),
  ) as never;
}

function resolveReference(inner: string, context: ExpansionContext): string {
  if (inner === 'userHome') return context.home;
  if (inner === 'workspaceFolder') return context.workspaceFolder;
  if (inner.startsWith('input:'))
    throw new UsageError(
      `${context.where} uses \${${inner}}, a value VS Code prompts for; mcpwire cannot prompt for it: ` +
        `use \${env:NAME} in the config and set NAME in the environment`,
    );
  const [name = '', fallback] = splitDefault(inner.startsWith('env:') ? inner.slice(4) : inner);
  const value = context.env[name];
  if (value !== undefined && value !== '') return value;
  if (fallback !== undefined) return fallback;
  if (value !== undefined) return value;
  throw new UsageError(
    `${context.where} uses \${${inner}}, but ${name} is not set: set it in the environment (or write \${${name}:-default})`,
  );
}

function splitDefault(reference: string): [string, string | undefined] {
  const at = reference.indexOf(':-');
  return at < 0 ? [reference, undefined] : [reference.slice(0, at), reference.slice(at + 2)];
}
