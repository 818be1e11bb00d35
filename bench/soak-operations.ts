// The mix of the soak: each operation one client does against the everything server, with what its
// result must be. Every operation goes through the ledger, so each one gets exactly one outcome.

import type { CallToolResult } from 'mcpwire';
import type { Client } from 'mcpwire/client';
import { toOutcome, type Ledger } from './soak-ledger.ts';

/** What one client life shares with its operations. */
export interface LifeState {
  readonly client: Client;
  readonly driver: string;
  readonly era: 'handshake' | 'stateless';
  readonly ledger: Ledger;
  readonly random: () => number;
  /** The ledger id of this life's connect entry: violations about the life as a whole go there. */
  readonly lifeId: number;
  /** Text that marks this client's requests on the wire (HTTP: its session id), for diagnostics. */
  needles: readonly string[];
  /** True once list-change and resource-update notifications are being received (handshake: always). */
  isListening: boolean;
  /** Calls of the list-change / resource-update tools, by how they ended, while listening. */
  triggers: { succeeded: number; failed: number; events: number };
  updates: { succeeded: number; failed: number; events: number };
}

/** Counters the operations bump, for the report. */
export interface MixCounters {
  /** Elicitation requests answered by the client's handler (handshake era: real requests). */
  elicitationsAnswered: number;
  /** Progress notifications received on calls that finished with a result. */
  progressEvents: number;
  /** Tool calls whose progress sequence was checked complete, without loss or repetition. */
  sequencesChecked: number;
}

type Operation = (life: LifeState, counters: MixCounters) => Promise<unknown>;

/** The name every elicitation answer carries; the tool greets it back. */
export const ELICITED_NAME = 'soak';

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** Request options that note each JSON-RPC id of ledger entry `id`, so a timeout can be traced. */
function traced(life: LifeState, id: number): { onRequestId: (requestId: string | number) => void } {
  return { onRequestId: (requestId) => life.ledger.noteRequestId(id, requestId) };
}

/** Runs `work` as a ledger entry of this life's driver, marked with the life's needles. */
function track<T>(life: LifeState, kind: string, work: (id: number) => Promise<T>): Promise<T | undefined> {
  return life.ledger.track(kind, life.driver, work, life.needles);
}

async function callExpecting(life: LifeState, kind: string, name: string, expected: RegExp): Promise<void> {
  await track(life, kind, async (id) => {
    const result = await life.client.callTool({ name, arguments: {} }, traced(life, id));
    if (result.isError === true || !expected.test(textOf(result)))
      life.ledger.violate(id, `${name} answered ${JSON.stringify(textOf(result)).slice(0, 120)}`);
  });
}

/**
 * Whether the progress a call saw is its sequence exactly once, in order ('exact'), in either era:
 * a handshake-era stream resumes without loss or repetition, and a stateless-era tools/call whose
 * stream broke is never re-issued by the client (S26-HTTP-8; the caller gets the failure), so a
 * second run of the tool behind the caller's back shows as 'broken' too.
 */
export function judgeSequence(seen: readonly number[], expected: readonly number[]): 'exact' | 'broken' {
  return seen.join() === expected.join() ? 'exact' : 'broken';
}

/**
 * test_tool_slow reports progress 100, 200, ... durationMs: over a resumed SSE stream every value
 * must arrive exactly once and in order, or an event was lost or repeated.
 */
const progressSequence: Operation = async (life, counters) => {
  const steps = 2 + Math.floor(life.random() * 12);
  const durationMs = steps * 100;
  const seen: number[] = [];
  await track(life, 'progress-sequence', async (id) => {
    const result = await life.client.callTool(
      { name: 'test_tool_slow', arguments: { durationMs } },
      { ...traced(life, id), onProgress: (progress) => seen.push(progress.progress) },
    );
    const expected = Array.from({ length: steps }, (_, index) => (index + 1) * 100);
    if (judgeSequence(seen, expected) === 'broken')
      life.ledger.violate(id, `progress ${seen.join()} instead of ${expected.join()}`);
    else counters.sequencesChecked++;
    counters.progressEvents += seen.length;
    if (textOf(result) !== `Slept for ${durationMs} ms.`) life.ledger.violate(id, 'wrong result text');
  });
};

/** A slow call aborted after a random pause: the client sends notifications/cancelled. */
const cancellation: Operation = async (life) => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 50 + Math.floor(life.random() * 500));
  try {
    await track(life, 'cancellation', (id) =>
      life.client.callTool(
        { name: 'test_tool_slow', arguments: { durationMs: 3000 } },
        { ...traced(life, id), signal: controller.signal },
      ),
    );
  } finally {
    clearTimeout(timer);
  }
};

/** A tool that needs input: a real elicitation request (handshake era) or an input_required round. */
const elicitation: Operation = (life) =>
  callExpecting(life, 'elicitation', 'test_input_required_result_elicitation', /^Hello, soak!$/);

async function countedTrigger(
  life: LifeState,
  kind: string,
  name: string,
  tally: LifeState['triggers'],
): Promise<void> {
  const isCounted = life.isListening;
  const id = life.ledger.begin(kind, life.driver, life.needles);
  try {
    await life.client.callTool({ name, arguments: {} }, traced(life, id));
    life.ledger.settle(id, 'result');
    if (isCounted) tally.succeeded++;
  } catch (error) {
    life.ledger.settle(id, toOutcome(error), error);
    if (isCounted) tally.failed++;
  }
}

const listChange: Operation = (life) =>
  countedTrigger(life, 'list-change', 'test_trigger_tool_change', life.triggers);

const resourceUpdate: Operation = (life) =>
  countedTrigger(life, 'resource-update', 'test_update_watched_resource', life.updates);

const fastCall: Operation = (life) =>
  callExpecting(life, 'call', 'test_tool_fast', /^Fast tool completed\.$/);

const listTools: Operation = async (life) => {
  await track(life, 'tools/list', async (id) => {
    const { tools } = await life.client.listTools(undefined, traced(life, id));
    if (!tools.some((tool) => tool.name === 'test_tool_slow'))
      life.ledger.violate(id, 'tools/list without test_tool_slow');
  });
};

/** A client notification (handshake era: notifications/roots/list_changed) tracked like a request. */
const rootsNotification: Operation = async (life) => {
  await track(life, 'notification', () =>
    life.client.setRoots([{ uri: `file:///soak/${Math.floor(life.random() * 1000)}`, name: 'soak' }]),
  );
};

/** The mix with its weights. */
const MIX: ReadonlyArray<readonly [number, Operation]> = [
  [4, fastCall],
  [3, progressSequence],
  [2, cancellation],
  [2, elicitation],
  [1, listChange],
  [1, resourceUpdate],
  [1, listTools],
  [1, rootsNotification],
];
const TOTAL_WEIGHT = MIX.reduce((sum, [weight]) => sum + weight, 0);

/** Runs one operation of the mix, chosen at random by weight. */
export function runRandomOperation(life: LifeState, counters: MixCounters): Promise<unknown> {
  let roll = life.random() * TOTAL_WEIGHT;
  for (const [weight, operation] of MIX) {
    roll -= weight;
    if (roll < 0) return operation(life, counters);
  }
  return fastCall(life, counters);
}

/**
 * Over stdio one server serves one client, so the notifications are exact. A list-change or
 * resource-update call produces one event, which may follow its result: so the count is judged after
 * a final round trip (`isSettled`). Then every successful call produced one event (list_changed: at least
 * one in all, as the server coalesces them) and a failed one at most one; after a kill, an event may also be lost with its server, so only "no more than one per call"
 * holds. Records a violation on the life otherwise.
 */
export function checkExactNotifications(life: LifeState, isSettled: boolean): void {
  for (const [name, tally, isCoalesced] of [
    ['list_changed', life.triggers, true],
    ['resources/updated', life.updates, false],
  ] as const) {
    // The server coalesces list_changed per tick (server-session.ts): concurrent calls may share one.
    const fewest = isCoalesced ? Math.min(tally.succeeded, 1) : tally.succeeded;
    const isTooFew = isSettled && tally.events < fewest;
    if (isTooFew || tally.events > tally.succeeded + tally.failed)
      life.ledger.violate(
        life.lifeId,
        `${tally.events} ${name} events for ${tally.succeeded} successful and ${tally.failed} failed calls`,
        { kind: 'connect', driver: life.driver },
      );
  }
}
