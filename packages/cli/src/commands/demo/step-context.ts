// What every step of the demo's story shares: the era, the host, the printer (and its wire record),
// the checks, and the facts earlier steps learned.

import type { CallToolResult, JsonObject } from 'mcpwire';
import type { Subscription } from 'mcpwire/client';
import type { DemoPrinter } from '../../terminal/demo-printer.ts';
import type { Checks } from './checks.ts';
import type { DemoChannel, DemoServer } from './connections.ts';
import type { DemoHost } from './host.ts';

/** The repository the story works in (seeded in every fresh database). */
export const REPOSITORY = { owner: 'acme', repo: 'webapp' } as const;

/** One run's shared state. Steps run one after another; none runs concurrently with another. */
export interface StepContext {
  readonly era: 'handshake' | 'stateless';
  readonly host: DemoHost;
  readonly printer: DemoPrinter;
  readonly checks: Checks;
  readonly server: DemoServer;
  /** The main connection, once open. */
  connection?: DemoChannel;
  /** The revision the main connection negotiated. */
  protocolVersion?: string;
  /** The issue create_issue made. */
  issueNumber?: number;
  /** Stateless era: the listen stream opened for list changes and the issue's updates. */
  subscription?: Subscription;
}

/** The issue's resource URI (the github server's issue template). */
export function issueUri(number: number): string {
  return `github://repos/${REPOSITORY.owner}/${REPOSITORY.repo}/issues/${number}`;
}

/** A tool result's structured content as a loose record (empty when absent). */
export function structuredOf(result: CallToolResult): JsonObject {
  return (result.structuredContent ?? {}) as JsonObject;
}

/** The text of a result's first text block. */
export function firstText(result: CallToolResult): string {
  const block = result.content.find((item) => item.type === 'text');
  return block?.type === 'text' ? block.text : '(no text)';
}
