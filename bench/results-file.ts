// One way to write a bench's results file: JSON formatted by the repository's prettier settings,
// so a results file the lead commits passes `prettier --check` as written.

import { writeFileSync } from 'node:fs';
import * as prettier from 'prettier';

/** Writes `value` to `outFile` as prettier-formatted JSON. */
export async function writeResultsFile(outFile: string, value: unknown): Promise<void> {
  const options = { ...(await prettier.resolveConfig(outFile)), filepath: outFile };
  writeFileSync(outFile, await prettier.format(JSON.stringify(value), options));
}
