// The callgrind steps every instruction-counting bench shares: the valgrind arguments that write one
// dump file, zeroing and dumping a running process's counters, and reading the total from the dump.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder for one process's dumps and the `valgrind` arguments (before the program) that fill it. */
export function callgrindRun(prefix: string): { folder: string; valgrindArgs: string[] } {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  const valgrindArgs = [
    '--tool=callgrind',
    `--callgrind-out-file=${join(folder, 'callgrind.out')}`,
    '--dump-instr=no',
    '--dump-line=no',
  ];
  return { folder, valgrindArgs };
}

/** Zeroes (`-z`) or dumps (`-d`) the counters of the callgrind process `pid`; returns once it has. */
export function callgrindControl(option: '-z' | '-d', pid: number): void {
  execFileSync('callgrind_control', [option, String(pid)], { stdio: 'ignore' });
}

/** The instructions counted in the first dump (`-d`) written to `folder` (the whole process, all threads). */
export function readDumpTotal(folder: string): number {
  const dump = readdirSync(folder).find((name) => name.startsWith('callgrind.out.'));
  if (dump === undefined) throw new Error(`no callgrind dump in ${folder}`);
  const totals = /^(?:totals|summary): (\d+)/m.exec(readFileSync(join(folder, dump), 'utf8'));
  if (totals === null) throw new Error(`no totals line in ${dump}`);
  return Number(totals[1]);
}
