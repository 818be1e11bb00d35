// The reference server that exercises every feature: every fixture the official conformance suite
// expects of a handshake-era (2025) server, plus examples of each definition field.

import { readFileSync } from 'node:fs';
import { Server } from 'mcpwire/server';
import { CancellationLog, registerCancellationTools } from './everything/cancellation-tools.ts';
import { registerClientRequestTools } from './everything/client-request-tools.ts';
import { registerContentTools } from './everything/content-tools.ts';
import { registerInputTools } from './everything/input-tools.ts';
import { registerListChangeTools } from './everything/list-change-tools.ts';
import { registerNotificationTools } from './everything/notification-tools.ts';
import { registerPrompts } from './everything/prompts.ts';
import { registerResources } from './everything/resources.ts';
import { createEverythingSkills } from './everything/skills.ts';
import { createEverythingTasks, registerTaskTools } from './everything/task-tools.ts';

/** This package's version (`src/` and `dist/` both sit one folder below package.json). */
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * A Server whose cancellation fixture also hears the resource updates relayed from other nodes (an
 * HTTP handler sharing a message bus calls `relayResourceUpdated`), so a cancellation on one node is
 * seen on every node.
 */
class EverythingServer extends Server {
  readonly cancellations = new CancellationLog();

  override relayResourceUpdated(uri: string): void {
    this.cancellations.take(uri);
    super.relayResourceUpdated(uri);
  }
}

/**
 * Creates a fresh everything server (no state shared between calls). Tools are listed in registration
 * order with `echo` first: it must succeed with `{}` (the suite calls the first tool that way).
 */
export function createEverythingServer(): Server {
  const server = new EverythingServer(
    { name: 'mcpwire-everything', title: 'mcpwire everything server', version: PACKAGE_VERSION },
    {
      instructions: 'A test server: every MCP feature, with the fixtures of the official conformance suite.',
      extensions: [createEverythingSkills(), createEverythingTasks()],
    },
  );
  registerContentTools(server);
  registerNotificationTools(server);
  registerClientRequestTools(server);
  registerInputTools(server);
  registerListChangeTools(server);
  registerResources(server);
  registerPrompts(server);
  registerTaskTools(server);
  registerCancellationTools(server, server.cancellations);
  return server;
}
export { JSON_SCHEMA_2020_12_FIXTURE } from './everything/content-tools.ts';
