// Which capability each method needs of which side, and the requirement a message breaks when it
// was not declared (2025-11-25 checklist section 1.1/1.2; 2026-07-28 sections 1.1, 2.10, 2.13): read
// from the library's method table (`METHODS`), which states them once per method.

import { METHODS, type MethodSpec } from 'mcpwire';

/**
 * The capability a method needs: who may send the method, who declares the capability (for tasks,
 * whoever receives the request; for a server's notifications, the server itself) and where.
 */
export interface CapabilityGate {
  readonly sender: 'client' | 'server' | 'both';
  readonly side: 'client' | 'server' | 'receiver';
  readonly path: readonly [string, ...string[]];
  /** The requirement broken in the handshake era, and in 2026-07-28 (absent: the method is gone there). */
  readonly handshake: string;
  readonly stateless?: string;
}

/**
 * Methods behind a capability, by method name: every row of the library's method table with a gate
 * and the requirement an undeclared gate breaks (`gateRequirement`). A prototype-less object.
 */
export const CAPABILITY_GATES: Readonly<Record<string, CapabilityGate>> = gatesOf(METHODS);

function gatesOf(rows: Readonly<Record<string, MethodSpec>>): Readonly<Record<string, CapabilityGate>> {
  const gates = Object.create(null) as Record<string, CapabilityGate>;
  for (const [method, row] of Object.entries(rows)) {
    const { gate, gateRequirement: requirement } = row;
    if (gate === undefined || requirement === undefined) continue;
    const base = { sender: row.sender, side: gate.side, path: gate.path, handshake: requirement.handshake };
    gates[method] =
      requirement.stateless === undefined ? base : { ...base, stateless: requirement.stateless };
  }
  return gates;
}

/**
 * The capability a task-augmented request (`params.task`, 2025-11-25) needs of its receiver:
 * `tasks.requests.<method's segments>`, for the rows with a `taskRequirement` (a client MUST NOT add
 * a task to tools/call without it, TASK-3; for the others it SHOULD NOT, TASK-2).
 */
export const TASK_GATES: Readonly<Record<string, { path: readonly string[]; requirement: string }>> =
  taskGatesOf(METHODS);

function taskGatesOf(
  rows: Readonly<Record<string, MethodSpec>>,
): Readonly<Record<string, { path: readonly string[]; requirement: string }>> {
  const gates = Object.create(null) as Record<string, { path: readonly string[]; requirement: string }>;
  for (const [method, { taskRequirement }] of Object.entries(rows)) {
    if (taskRequirement !== undefined)
      gates[method] = { path: ['tasks', 'requests', ...method.split('/')], requirement: taskRequirement };
  }
  return gates;
}
