// The machine a benchmark ran on, for the `env` of its result file.
import os from 'node:os';

/** Node, platform, CPUs and the load average when the run started (rounded to 2 places). */
export function machineFacts(): {
  node: string;
  platform: string;
  cpus: number;
  cpuModel: string;
  loadAverageAtStart: number[];
} {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    loadAverageAtStart: loadAverageNow(),
  };
}

/** The 1, 5 and 15 minute load averages now, rounded to 2 places. */
export function loadAverageNow(): number[] {
  return os.loadavg().map((l) => Math.round(l * 100) / 100);
}

/** The environment variable `name` as a positive integer; `fallback` when unset or empty. Throws on anything else. */
export function positiveInt(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name}: expected a positive integer, received ${text}`);
  return value;
}
