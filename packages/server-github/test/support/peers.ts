// What the github server's tests share: a server on a fresh in-memory database, our Client
// connected to it over the in-memory pair in either era, temporary folders, and result readers.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryPair, type CallToolResult } from 'mcpwire';
import { Client, type ClientOptions } from 'mcpwire/client';
import type { Server } from 'mcpwire/server';
import { createGithubServer, type GithubServer } from '../../src/github.ts';

/** The two eras every behaviour is tested in. */
export const ERAS = ['handshake', 'stateless'] as const;

/** A github server on its own in-memory database; close it (or `await using`) when done. */
export function createMemoryServer(): GithubServer {
  return createGithubServer({ db: ':memory:' });
}

/** Our Client connected to `server` over a fresh in-memory pair, speaking `era`. Close it when done. */
export async function connectClient(
  server: Server,
  era: 'handshake' | 'stateless',
  options: ClientOptions = {},
): Promise<Client> {
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client({ name: `github-test-${era}`, version: '1.0.0' }, { ...options, era });
  await client.connect(clientEnd);
  return client;
}

/** Calls a tool and returns its result (isError results included). */
export function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return client.callTool({ name, arguments: args });
}

/** Calls a tool that must succeed; returns its structuredContent. */
export async function callOk<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result.structuredContent as T;
}

/** The text blocks of a result, joined by newlines. */
export function textOf(result: { content: readonly { type: string; text?: string }[] }): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

/** A temporary folder, removed on dispose. */
export class TempDir implements Disposable {
  readonly path = mkdtempSync(join(tmpdir(), 'mcpwire-github-'));

  /** A path inside the folder. */
  file(name: string): string {
    return join(this.path, name);
  }

  [Symbol.dispose](): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

/** Resolves with the first `resourceUpdated` event for `uri` that `client` receives. */
export function nextUpdate(client: Client, uri: string): Promise<string> {
  return new Promise((resolve) => {
    const off = client.on('resourceUpdated', (params) => {
      if (params.uri !== uri) return;
      off();
      resolve(params.uri);
    });
  });
}
