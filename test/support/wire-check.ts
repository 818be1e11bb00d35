// Preloaded into every test process (and every mcpwire child process the tests start): validates
// every message our Server and Client SEND against the official schema of the revision in force.
// Failures are written to $MCPWIRE_WIRE_REPORT_DIR/<pid>.txt; scripts/run-tests.mjs fails the run on any.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'mcpwire';
import { setWireObserver, type WireEvent } from 'mcpwire';
import { createWireValidator, type WireValidator } from './wire-schema.ts';

/** The revision assumed for connections that never negotiated one (their early error responses). */
const FALLBACK_REVISION = '2025-11-25';

interface Entry {
  validator: WireValidator;
  version: string | undefined;
  reported: number;
}

// Weak on both sides: the check must not keep a closed connection (and its server session) alive,
// or tests that prove sessions are released could never pass under it.
const entries = new WeakMap<object, Entry>();
const liveEntries = new Set<WeakRef<Entry>>();
const ignored = new WeakSet<object>();

/**
 * Excludes one connection (a Session used as a deliberately misbehaving peer in a test) from the
 * check. Only for peers whose job is to send invalid messages.
 */
export function ignoreConnection(connection: object): void {
  ignored.add(connection);
}
let isFinalizing = false;
const failures: string[] = [];

function entryFor(event: WireEvent): Entry {
  let entry = entries.get(event.connection);
  if (!entry) {
    const created: Entry = {
      version: undefined,
      reported: 0,
      validator: createWireValidator({
        side: event.role,
        allowUnknownMethods: true,
        revision: () => created.version ?? (isFinalizing ? FALLBACK_REVISION : undefined),
      }),
    };
    entry = created;
    entries.set(event.connection, entry);
    liveEntries.add(new WeakRef(entry));
  }
  return entry;
}

function collect(entry: Entry): void {
  const { failures: found } = entry.validator;
  for (; entry.reported < found.length; entry.reported++) {
    const failure = found[entry.reported]!;
    // Only what our code sends is ours to answer for; peers' messages are checked elsewhere.
    if (failure.startsWith('sent ')) failures.push(failure);
  }
}

setWireObserver((event) => {
  if (ignored.has(event.connection)) return;
  const entry = entryFor(event);
  if (event.protocolVersion !== undefined) entry.version = event.protocolVersion;
  const { message } = event;
  // Received frames are checked too (failures there are the peer's and are not reported), so that
  // responses can be matched to the requests they answer.
  if (event.direction === 'sent') entry.validator.check(message, 'sent');
  else entry.validator.checkFrame(message as Frame);
  collect(entry);
});

process.on('exit', () => {
  isFinalizing = true;
  for (const ref of liveEntries) {
    const entry = ref.deref();
    if (!entry) continue;
    try {
      entry.validator.assertClean();
    } catch {
      // Failures are collected below; assertClean only drains what waited for a revision.
    }
    collect(entry);
  }
  if (failures.length === 0) return;
  const text = `${failures.length} message(s) sent by mcpwire failed schema validation (pid ${process.pid}, ${process.argv.slice(1).join(' ')}):\n${failures.map((f) => `- ${f}`).join('\n')}\n`;
  process.stderr.write(text);
  const dir = process.env.MCPWIRE_WIRE_REPORT_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${process.pid}.txt`), text);
  }
  process.exitCode = 1;
});
