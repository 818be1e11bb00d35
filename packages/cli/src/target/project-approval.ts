// Approving a server that only a project config (a file found from the current folder, written by
// whoever wrote the folder) defines, before anything in it runs or any `${VAR}` is expanded: asked
// once on a terminal and remembered per file path, content hash and server name.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { UsageError } from '../exit-code.ts';
import { dataDirectory, type DataDirContext } from '../oauth/token-store-path.ts';
import { toTerminalText } from '../terminal/terminal-text.ts';
import type { ConfigFileEntries, RawServerEntry } from './host-config.ts';

/** A server entry found only in a project config. */
export interface ProjectServer {
  name: string;
  file: ConfigFileEntries;
  entry: RawServerEntry;
}

/** How approval is decided. */
export interface ApprovalOptions {
  /** `--trust-project-config`: run it this once without asking (nothing is remembered). */
  isTrusted?: boolean | undefined;
  /** Where the approvals file lives (see {@link approvalsPath}). */
  dataDir: DataDirContext;
  /** Asks the person `question` (the entry shown); default: on the terminal, when stdin and stderr are one. */
  ask?: ((question: string) => Promise<boolean>) | undefined;
}

/** The approvals file: `<data dir>/project-approvals.json` (owner-only). */
export function approvalsPath(context: DataDirContext): string {
  return join(dataDirectory(context), 'project-approvals.json');
}

/**
 * Resolves when `server` may run: trusted by flag, approved before for this exact file content, or
 * approved now by the person (then remembered). Says on stderr which file the server comes from.
 * Throws UsageError (exit 2) when it is declined, or when there is no terminal to ask on.
 */
export async function approveProjectServer(server: ProjectServer, options: ApprovalOptions): Promise<void> {
  const path = server.file.location.path;
  const where = `server "${server.name}" from the project config ${path}`;
  const approvals = readApprovals(options.dataDir);
  const isApproved =
    approvals[path]?.sha256 === server.file.sha256 && approvals[path].servers.includes(server.name);
  if (options.isTrusted !== true && !isApproved) {
    const ask = options.ask ?? (hasTerminal() ? askOnTerminal : undefined);
    const shown = describeEntry(server.entry);
    if (ask === undefined)
      throw new UsageError(
        `${where} is not approved (it would run ${toTerminalText(shown.split('\n')[0]!)}): ` +
          'a config found in the current folder runs only once you approve it. Run the command on a ' +
          'terminal to be asked (the answer is remembered until the file changes), or pass --trust-project-config',
      );
    const question =
      `mcpwire: ${where} is not one of your own config files.\n${indent(shown)}\n` +
      'Approve this server of that file (remembered until the file changes)? [y/N] ';
    if (!(await ask(toTerminalText(question, { keepNewlines: true }))))
      throw new UsageError(`${where} was not approved: nothing was run`);
    writeApprovals(options.dataDir, {
      ...approvals,
      [path]: {
        sha256: server.file.sha256,
        servers: [
          ...(approvals[path]?.sha256 === server.file.sha256 ? approvals[path].servers : []),
          server.name,
        ],
      },
    });
  }
  process.stderr.write(toTerminalText(`mcpwire: using ${where}`) + '\n');
}

/**
 * What an entry would run or reach, unexpanded: the command line or URL, the env and header names,
 * and the environment variables its `${...}` references would read. Lines, for the prompt.
 */
export function describeEntry(entry: RawServerEntry): string {
  const lines: string[] = [];
  if (typeof entry.url === 'string') lines.push(`url: ${entry.url}`);
  else {
    const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
    lines.push(`command: ${[String(entry.command), ...args].join(' ')}`);
  }
  for (const field of ['env', 'headers'] as const) {
    const value = entry[field];
    if (typeof value === 'object' && value !== null)
      lines.push(`${field}: ${Object.keys(value).join(', ') || '(none)'}`);
  }
  const variables = referencedVariables(entry);
  lines.push(`environment variables it reads: ${variables.length === 0 ? 'none' : variables.join(', ')}`);
  return lines.join('\n');
}

/** The environment variable names the `${...}` references of an entry's fields name. */
function referencedVariables(entry: RawServerEntry): string[] {
  const texts: string[] = [];
  for (const field of ['command', 'url', 'cwd', 'args', 'env', 'headers']) {
    const value = entry[field];
    if (typeof value === 'string') texts.push(value);
    else if (typeof value === 'object' && value !== null)
      for (const item of Object.values(value)) if (typeof item === 'string') texts.push(item);
  }
  const names = new Set<string>();
  for (const text of texts)
    for (const [, inner = ''] of text.matchAll(/\$\{([^{}]*)\}/g)) {
      if (inner === 'userHome' || inner === 'workspaceFolder' || inner.startsWith('input:')) continue;
      const name = (inner.startsWith('env:') ? inner.slice(4) : inner).split(':-')[0]!;
      names.add(name);
    }
  return [...names];
}

type Approvals = Record<string, { sha256: string; servers: string[] }>;

function readApprovals(context: DataDirContext): Approvals {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(approvalsPath(context), 'utf8'));
  } catch {
    // None yet, or unreadable: nothing is approved.
    return {};
  }
  const approvals: Approvals = {};
  const recorded = (parsed as { approvals?: unknown } | null)?.approvals;
  if (typeof recorded !== 'object' || recorded === null) return approvals;
  for (const [path, value] of Object.entries(recorded)) {
    const { sha256, servers } = (value ?? {}) as { sha256?: unknown; servers?: unknown };
    if (typeof sha256 === 'string' && Array.isArray(servers))
      approvals[path] = { sha256, servers: servers.filter((name) => typeof name === 'string') };
  }
  return approvals;
}

/** Writes the whole file anew (a temporary file renamed over it), owner-only. */
function writeApprovals(context: DataDirContext, approvals: Approvals): void {
  const path = approvalsPath(context);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ approvals }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

function hasTerminal(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true;
}

/** Asks on the terminal (prompt on stderr); only `y` or `yes` approves; Ctrl-C or Ctrl-D declines. */
async function askOnTerminal(question: string): Promise<boolean> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  const closed = new Promise<string>((resolve) => terminal.once('close', () => resolve('')));
  terminal.once('SIGINT', () => terminal.close());
  try {
    const answer = await Promise.race([terminal.question(question), closed]);
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    terminal.close();
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
