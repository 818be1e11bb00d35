// What the load benches share about their child processes: the request every driver sends (`load`'s
// arguments for it) and a child run to its end with its output kept.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/** `mcpwire load`'s arguments for the benches' request: tools/call echo "hello", handshake era. */
export const ECHO_LOAD_ARGS: readonly string[] = ['--era', 'handshake', '--call', 'echo', 'message=hello'];

/**
 * Runs `command` with `args` to its end; resolves with its exit code and everything it wrote.
 * `onSpawn` gets the child as it starts (bench/load-cpu.ts reads its CPU from /proc while it runs).
 */
export async function runToEnd(
  command: string,
  args: readonly string[],
  options: Pick<SpawnOptions, 'cwd' | 'env'> = {},
  onSpawn?: (child: ChildProcess) => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  onSpawn?.(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}
