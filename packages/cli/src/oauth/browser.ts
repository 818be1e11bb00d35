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

/** The platform's opener on `url` (xdg-open, open, start), as `spawn` would run it on `platform`. */
export function browserCommand(url: string, platform: NodeJS.Platform): BrowserCommand {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url.replaceAll('&', '^&')] };
  return { command: 'xdg-open', args: [url] };
}

/** Starts the platform's opener on `url` (see {@link browserCommand}), detached; errors are ignored. */
export function openBrowser(url: string): void {
  const { command, args } = browserCommand(url, process.platform);
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  } catch {
    // The URL is on stderr: the user opens it by hand.
  }
}
