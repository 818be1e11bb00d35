// Preloaded (`node --expose-gc --import ./bench/servers/mem-probe.mjs <server>`) into every server process of the
// HTTP memory measurement, ours and the official ones alike, so nothing is added to src: on SIGUSR2 it runs two
// full GCs and prints one `MEMPROBE {json}` line on stderr with process.memoryUsage() and VmRSS from
// /proc/self/status. The bench reads that line; it also reads /proc/<pid>/status itself as a cross-check.
import { readFileSync } from 'node:fs';

process.on('SIGUSR2', () => {
  globalThis.gc?.();
  globalThis.gc?.();
  let vmRssKb = null;
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    vmRssKb = match ? Number(match[1]) : null;
  } catch {
    // not Linux: memoryUsage() only
  }
  process.stderr.write(`MEMPROBE ${JSON.stringify({ ...process.memoryUsage(), vmRssKb })}\n`);
});
