// Runs `bench/soak.ts` as `npm run soak` runs it, with a temporary output folder, and reads back what
// it wrote: the verdict (its JSON) and, when the run drew one, its chart (the SVG beside it).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './raw-server-process.ts';

/** What a soak run left: its exit code, its stderr, its verdict and its chart (undefined when none). */
export interface SoakRun<Verdict> {
  code: number | null;
  stderr: string;
  verdict: Verdict;
  svg: string | undefined;
}

/** Runs the soak with `args` (`--seconds`, `--seed`, `--nodes` ...) and waits for it to end. */
export async function runSoak<Verdict>(args: string[]): Promise<SoakRun<Verdict>> {
  const outDir = mkdtempSync(join(tmpdir(), 'mcpwire-soak-'));
  try {
    // The environment of `npm run soak`: the test runner's NODE_OPTIONS (tsx, the wire check) stay out.
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--conditions=@mcpwire/source',
        `--import=${import.meta.resolve('tsx')}`,
        join(ROOT, 'bench', 'soak.ts'),
        ...args,
        '--out-dir',
        outDir,
      ],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    const name = readdirSync(outDir).find((file) => file.endsWith('.json'));
    assert.ok(name, `the soak wrote no figures (exit ${code}):\n${stderr}`);
    const verdict = JSON.parse(readFileSync(join(outDir, name), 'utf8')) as Verdict;
    const svgPath = join(outDir, name.replace(/\.json$/, '.svg'));
    const svg = existsSync(svgPath) ? readFileSync(svgPath, 'utf8') : undefined;
    return { code, stderr, verdict, svg };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
