// Opening the authorization URL in the user's browser, when there is one to open: only when stderr
// is a terminal, not in CI, and (on Linux) a display is set. Never fails: the URL is printed anyway.

import { spawn } from 'node:child_process';

/** True when a browser can be expected: a terminal on stderr, no CI, a display on Linux and BSD. */
export function canOpenBrowser(
  env: Record<string, string | undefined> = process.env,
  stderr: { isTTY?: boolean } = process.stderr,
): boolean {
  if (stderr.isTTY !== true || (env.CI !== undefined && env.CI !== '' && env.CI !== 'false')) return false;
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return (env.DISPLAY ?? '') !== '' || (env.WAYLAND_DISPLAY ?? '') !== '';
}

/** A program and its arguments, as `spawn` takes them (no shell). */
export interface BrowserCommand {
  command: string;
  args: string[];
}

/** A character RFC 3986 does not allow in a URI, or a `%` that starts no escape. */
const NOT_URI = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu;

/**
 * `url` as it may reach an opener, or undefined for anything but an absolute http(s) URL (`file:`,
 * `javascript:`, `ms-settings:`, a path, ... are never opened). It is re-serialised by the URL parser,
 * then every character RFC 3986 does not allow (`|`, `^`, `` ` ``, `{`, `\`, ...) and every `%` that
 * starts no escape is percent-encoded: the same URL to a server, and no character a shell or cmd.exe
 * would act on besides `&`, `'`, `(`, `)`, `!`, `;`, `$`, which only a shell would (none is used).
 */
export function toBrowserUrl(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return parsed.href.replace(NOT_URI, (char) => encodeURIComponent(char));
}

/**
 * The platform's opener on `url`, as `spawn` runs it (never through a shell), or undefined when `url`
 * is refused by {@link toBrowserUrl}. Windows gets `rundll32 url.dll,FileProtocolHandler <url>` (the
 * URL goes to ShellExecute, no cmd.exe: `cmd /c start` let `|`, `^`, `%VAR%` in a server-named URL
 * run commands, as in mcp-remote's CVE-2025-6514); macOS `open`, others `xdg-open`.
 */
export function browserCommand(url: string, platform: NodeJS.Platform): BrowserCommand | undefined {
  const safe = toBrowserUrl(url);
  if (safe === undefined) return undefined;
  if (platform === 'darwin') return { command: 'open', args: [safe] };
  if (platform === 'win32') {
    // An absolute path: a bare name is looked up in the working directory first.
    const root = process.env.SystemRoot ?? 'C:\\Windows';
    return { command: `${root}\\System32\\rundll32.exe`, args: ['url.dll,FileProtocolHandler', safe] };
  }
  return { command: 'xdg-open', args: [safe] };
}

/** Starts the platform's opener on `url` (see {@link browserCommand}), detached; a refused URL or an error is ignored. */
export function openBrowser(url: string): void {
  const opener = browserCommand(url, process.platform);
  if (opener === undefined) return;
  const { command, args } = opener;
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  } catch {
    // The URL is on stderr: the user opens it by hand.
  }
}
