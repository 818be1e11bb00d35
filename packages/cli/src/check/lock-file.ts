// The lock file of `mcpwire pin` (mcp-lock.json): the server's name and version and, per definition,
// the SHA-256 of its canonical JSON and the definition itself (so `check --pin` can say what changed).
// Reading one back and comparing it with a listing gives the pin/* findings.

import type { CheckFinding } from './check-finding.ts';
import { sha256Of } from './canonical-json.ts';
import type { Definition, DefinitionKind, ServerListing } from './definition.ts';
import { describeChanges } from './value-diff.ts';
import { findingOf } from './report.ts';
import { isObject } from './schema-walk.ts';
import { capDepth } from '../wire/json-depth.ts';

/** One pinned definition. */
export interface PinnedDefinition {
  kind: DefinitionKind;
  name: string;
  sha256: string;
  definition: Record<string, unknown>;
}

/** The whole lock file. */
export interface LockFile {
  lockfileVersion: 1;
  server: { name: string; version: string };
  protocolVersion: string;
  /** Keyed `<kind>:<name>`, in key order; a second definition with one key gets `#2`, `#3`, ... */
  definitions: Record<string, PinnedDefinition>;
}

const KINDS: readonly DefinitionKind[] = ['tool', 'prompt', 'resource', 'resourceTemplate'];

/** The lock file of `listing`: keys sorted, so pinning the same server twice writes the same bytes. */
export function toLockFile(listing: ServerListing): LockFile {
  const entries = keyed(listing.definitions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    lockfileVersion: 1,
    server: listing.server,
    protocolVersion: listing.protocolVersion,
    definitions: Object.fromEntries(
      entries.map(([key, definition]) => [
        key,
        {
          kind: definition.kind,
          name: definition.name,
          sha256: sha256Of(definition.value),
          definition: definition.value,
        },
      ]),
    ),
  };
}

/** Parses the text of a lock file; throws an Error saying what is wrong with it. */
export function parseLockFile(text: string): LockFile {
  const value = capDepth(JSON.parse(text) as unknown);
  if (!isObject(value) || value.lockfileVersion !== 1 || !isObject(value.definitions))
    throw new Error('expected a lock file written by "mcpwire pin" (lockfileVersion 1 and "definitions")');
  for (const [key, entry] of Object.entries(value.definitions)) {
    const isEntry =
      isObject(entry) &&
      KINDS.includes(entry.kind as DefinitionKind) &&
      typeof entry.name === 'string' &&
      typeof entry.sha256 === 'string' &&
      isObject(entry.definition);
    if (!isEntry)
      throw new Error(`the definition ${JSON.stringify(key)} is malformed (kind, name, sha256, definition)`);
  }
  return value as unknown as LockFile;
}

/**
 * pin/removed and pin/changed in the lock file's key order, then pin/added in the listing's key order.
 * A definition counts as changed when the SHA-256 of its canonical JSON differs from the pinned one.
 */
export function comparePin(lock: LockFile, definitions: readonly Definition[]): CheckFinding[] {
  const current = new Map(keyed(definitions));
  const findings: CheckFinding[] = [];
  for (const key of Object.keys(lock.definitions).sort()) {
    const pinned = lock.definitions[key]!;
    const now = current.get(key);
    const asDefinition = { kind: pinned.kind, name: pinned.name, value: pinned.definition };
    if (now === undefined)
      findings.push(
        findingOf('pin/removed', asDefinition, {
          message: `the ${pinned.kind} is pinned but the server no longer lists it`,
          fix: 'if the removal is intended, run "mcpwire pin" again and commit the lock file',
        }),
      );
    else if (sha256Of(now.value) !== pinned.sha256)
      findings.push(
        findingOf('pin/changed', now, {
          message: `changed since it was pinned: ${describeChanges(pinned.definition, now.value)}`,
          fix: 'review the change; if it is intended, run "mcpwire pin" again and commit the lock file',
        }),
      );
  }
  const added = [...current.keys()].filter((key) => lock.definitions[key] === undefined).sort();
  for (const key of added)
    findings.push(
      findingOf('pin/added', current.get(key)!, {
        message: `the server lists a ${current.get(key)!.kind} the lock file does not have`,
        fix: 'review it; if it is intended, run "mcpwire pin" again and commit the lock file',
      }),
    );
  return findings;
}

/** Each definition with its lock-file key, in listing order. */
function keyed(definitions: readonly Definition[]): Array<[string, Definition]> {
  const counts = new Map<string, number>();
  return definitions.map((definition) => {
    const base = `${definition.kind}:${definition.name}`;
    const count = (counts.get(base) ?? 0) + 1;
    counts.set(base, count);
    return [count === 1 ? base : `${base}#${count}`, definition];
  });
}
