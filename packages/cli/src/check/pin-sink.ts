// `mcpwire tap --pin <lock>`: a sink of the tap's recorder that compares every listing the host asks
// for (tools, prompts, resources, resource templates) with the lock file as it passes, and reports
// each definition added or changed, and, after a listing that reached its last page, each removed:
// also when the host lists again after a list_changed in the middle of a session.

import { readFileSync } from 'node:fs';
import { UsageError } from '../exit-code.ts';
import type { WireSink } from '../wire/recorder.ts';
import { capDepth } from '../wire/json-depth.ts';
import { sha256Of } from './canonical-json.ts';
import type { CheckFinding } from './check-finding.ts';
import type { Definition, DefinitionKind } from './definition.ts';
import { parseLockFile, type LockFile } from './lock-file.ts';
import { findingOf } from './report.ts';
import { isObject } from './schema-walk.ts';
import { describeChanges } from './value-diff.ts';

/** Each list method: the kind it lists, the result's array, the property that names an item. */
const LISTS: Record<string, { kind: DefinitionKind; key: string; name: string }> = {
  'tools/list': { kind: 'tool', key: 'tools', name: 'name' },
  'prompts/list': { kind: 'prompt', key: 'prompts', name: 'name' },
  'resources/list': { kind: 'resource', key: 'resources', name: 'uri' },
  'resources/templates/list': { kind: 'resourceTemplate', key: 'resourceTemplates', name: 'uriTemplate' },
};

/** Reads the lock file at `file` (a UsageError, exit 2, when it is none) and returns its sink. */
export function openPinSink(file: string, report: (finding: CheckFinding) => void): WireSink {
  let lock: LockFile;
  try {
    lock = parseLockFile(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--pin ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return pinSink(lock, report);
}

/**
 * A sink reporting pin/added, pin/changed and pin/removed findings as listings pass. Each change is
 * reported once (a definition listed again unchanged since its report is not reported again).
 */
export function pinSink(lock: LockFile, report: (finding: CheckFinding) => void): WireSink {
  const pending = new Map<string, { list: (typeof LISTS)[string]; isFirstPage: boolean }>();
  const listing = new Map<DefinitionKind, Set<string>>();
  const reported = new Set<string>();
  const once = (key: string, finding: CheckFinding): void => {
    if (reported.has(key)) return;
    reported.add(key);
    report(finding);
  };
  const handle = (
    list: (typeof LISTS)[string],
    isFirstPage: boolean,
    result: Record<string, unknown>,
  ): void => {
    if (isFirstPage) listing.set(list.kind, new Set());
    const seen = listing.get(list.kind);
    const items = Array.isArray(result[list.key]) ? (result[list.key] as unknown[]) : [];
    for (const item of items) {
      if (!isObject(item)) continue;
      const value = capDepth(item);
      const name = typeof value[list.name] === 'string' ? (value[list.name] as string) : '';
      const key = `${list.kind}:${name}`;
      seen?.add(key);
      const definition: Definition = { kind: list.kind, name, value };
      const pinned = lock.definitions[key];
      const sha = sha256Of(value);
      if (pinned === undefined)
        once(
          `${key}\u0000${sha}`,
          findingOf('pin/added', definition, {
            message: 'listed, but the lock file does not have it',
            fix: FIX,
          }),
        );
      else if (pinned.sha256 !== sha)
        once(
          `${key}\u0000${sha}`,
          findingOf('pin/changed', definition, {
            message: `differs from the pin: ${describeChanges(pinned.definition, value)}`,
            fix: FIX,
          }),
        );
    }
    if (result.nextCursor !== undefined || seen === undefined) return;
    listing.delete(list.kind);
    for (const [key, pinned] of Object.entries(lock.definitions))
      if (pinned.kind === list.kind && !seen.has(key))
        once(
          `${key}\u0000removed`,
          findingOf(
            'pin/removed',
            { kind: pinned.kind, name: pinned.name, value: pinned.definition },
            {
              message: 'pinned, but the server no longer lists it',
              fix: FIX,
            },
          ),
        );
  };
  return {
    entry(entry) {
      if (entry.type !== 'message' || !isObject(entry.message)) return;
      const message = entry.message as Record<string, unknown>;
      const id = message.id;
      if (typeof id !== 'string' && typeof id !== 'number') return;
      const idKey = `${typeof id}:${id}`;
      const list = typeof message.method === 'string' ? LISTS[message.method] : undefined;
      if (entry.from === 'client' && list !== undefined) {
        const params = message.params;
        pending.set(idKey, { list, isFirstPage: !isObject(params) || params.cursor === undefined });
        return;
      }
      const request = entry.from === 'server' ? pending.get(idKey) : undefined;
      if (request === undefined || message.method !== undefined) return;
      pending.delete(idKey);
      if (isObject(message.result)) handle(request.list, request.isFirstPage, message.result);
    },
  };
}

const FIX = 'review the change before the host uses it; if it is intended, run "mcpwire pin" again';
