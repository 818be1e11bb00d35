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

/** Starts the platform's opener on `url` (xdg-open, open, start), detached; errors are ignored. */
export function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replaceAll('&', '^&')]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  } catch {
    // The URL is on stderr: the user opens it by hand.
  }
}
