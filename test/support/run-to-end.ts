// A command run to its end, for tests that judge a whole run's output (the conformance suites).

import { spawn } from 'node:child_process';

/** Runs a command to its end; resolves with its exit code and its stdout and stderr together. */
export function runToEnd(
  command: string,
  args: readonly string[],
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}
