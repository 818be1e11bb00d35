// The work of `mcpwire check` and `mcpwire pin` once connected: list every definition, run the rules
// (and the pin comparison), print the report, and say the exit code. Loaded only when one runs.

import { writeFileSync } from 'node:fs';
import { ExitCode, type ExitCodeValue } from '../exit-code.ts';
import type { OneShot } from '../target/one-shot.ts';
import { PACKAGE_VERSION } from '../package-info.ts';
import { toTerminalText } from '../terminal/terminal-text.ts';
import type { CheckFinding } from './check-finding.ts';
import { toJsonReport, toSarif, toTextReport } from './check-output.ts';
import { listDefinitions } from './definition.ts';
import { comparePin, toLockFile, type LockFile } from './lock-file.ts';
import { runCheckRules } from './rules/index.ts';

/** What `check` was asked for, its options already checked. */
export interface CheckRequest {
  format: 'text' | 'json' | 'sarif';
  /** Undefined: every client, as warnings. */
  clients: readonly string[] | undefined;
  ignore: readonly string[];
  pin?: { file: string; lock: LockFile } | undefined;
  /** The `--call` operands (`<tool> [key=value ...]`): tools to call once each after the listing. */
  calls?: readonly string[] | undefined;
}

/** Runs the check over `oneShot`'s connection; exit 1 when any finding is an error, else 0. */
export async function runCheck(oneShot: OneShot, request: CheckRequest): Promise<ExitCodeValue> {
  const listing = await listDefinitions(oneShot.client, { signal: oneShot.signal, relist: true });
  const context = {
    protocolVersion: listing.protocolVersion,
    clients: request.clients,
    relisted: listing.relisted,
  };
  const calls = request.calls ?? [];
  const sampled =
    calls.length === 0
      ? { findings: [], calls: [] }
      : await (
          await import('./sample-call.ts')
        ).runSampleCalls(oneShot.client, listing.definitions, { specs: calls, signal: oneShot.signal });
  const all: CheckFinding[] = [
    ...runCheckRules(listing.definitions, context),
    ...sampled.findings,
    ...(request.pin === undefined ? [] : comparePin(request.pin.lock, listing.definitions)),
  ];
  const findings = all.filter((finding) => !request.ignore.includes(finding.rule));
  if (request.format === 'json')
    oneShot.printJson(toJsonReport(listing, findings, { sampleCalls: sampled.calls }));
  else if (request.format === 'sarif')
    oneShot.printJson(toSarif(listing, findings, { version: PACKAGE_VERSION, artifact: request.pin?.file }));
  else
    oneShot.print(toTextReport(listing, findings, { colours: oneShot.colours, sampleCalls: sampled.calls }));
  return findings.some((finding) => finding.severity === 'error') ? ExitCode.failed : ExitCode.ok;
}

/** Writes the lock file of the server to `file` (replacing it) and says so on stdout. */
export async function runPin(oneShot: OneShot, file: string): Promise<ExitCodeValue> {
  const listing = await listDefinitions(oneShot.client, { signal: oneShot.signal });
  const lock = toLockFile(listing);
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  const count = Object.keys(lock.definitions).length;
  const server = toTerminalText(`${listing.server.name} ${listing.server.version}`);
  oneShot.print(
    `Pinned ${count} definition${count === 1 ? '' : 's'} of ${server} to ${toTerminalText(file)}.\n`,
  );
  return ExitCode.ok;
}
