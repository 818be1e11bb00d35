// Stopping a server process (LIFE-13): close its stdin, wait; SIGTERM its process group, wait;
// SIGKILL the group. On POSIX the child leads its own group, so grandchildren go with it.

import type { ChildProcess } from 'node:child_process';

/** True once the process has exited (its exit code or signal is known). */
export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves when the process has exited (at once if it already has). Never rejects. */
export function waitForExit(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Runs the shutdown sequence and resolves once the process has exited: end its stdin and wait up
 * to `timeoutMs`; then SIGTERM and wait again; then SIGKILL and wait for the exit. Signals go to
 * the whole process group on POSIX (falling back to the process alone), so a child that spawned
 * helpers does not leave them behind. Once the leader is gone, whatever is left of its group gets
 * one SIGTERM. Safe to call on a process that has already exited.
 */
export async function shutdownProcess(child: ChildProcess, options: { timeoutMs: number }): Promise<void> {
  const exited = waitForExit(child);
  if (!hasExited(child)) {
    child.stdin?.end();
    if (!(await settlesWithin(exited, options.timeoutMs))) {
      sendSignal(child, 'SIGTERM');
      if (!(await settlesWithin(exited, options.timeoutMs))) {
        sendSignal(child, 'SIGKILL');
        await exited;
      }
    }
  }
  if (child.signalCode !== 'SIGKILL') signalGroup(child, 'SIGTERM');
}

/**
 * Sends `signal` to the process's group (POSIX, when it leads one), else to the process itself.
 * Never throws: a group or process that is already gone is not an error here.
 */
export function sendSignal(child: ChildProcess, signal: NodeJS.Signals): void {
  if (signalGroup(child, signal)) return;
  if (!hasExited(child)) child.kill(signal);
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  if (process.platform === 'win32' || child.pid === undefined) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
