// The CPU time and peak memory of the servers `mcpwire load` started over stdio, read from
// /proc/<pid>/ (Linux only: elsewhere there is nothing to read, and the report says so).

import { readFileSync } from 'node:fs';

/** Linux reports CPU times in /proc in ticks of USER_HZ, which is 100 on every architecture. */
const TICKS_PER_SECOND = 100;

/** One server process: CPU (user + system) spent while measuring, and its peak resident memory. */
export interface ProcessUsage {
  pid: number;
  cpuMs: number;
  peakRssBytes: number;
}

/** Where /proc cannot be read: why nothing is measured. */
export function usageUnavailableReason(pids: ReadonlyArray<number | undefined>): string | undefined {
  if (pids.length === 0 || pids.every((pid) => pid === undefined))
    return 'the server is behind a URL: no process of it here to measure';
  if (process.platform !== 'linux')
    return `CPU and memory are read from /proc, which ${process.platform} does not have`;
  return undefined;
}

/** User + system CPU time of `pid` so far, ms; undefined once it cannot be read (it exited). */
export function readCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces, in parentheses): utime is 14th, stime 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The peak resident set size of `pid` (VmHWM), bytes; undefined when it cannot be read. */
export function readPeakRssBytes(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}
