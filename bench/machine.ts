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
