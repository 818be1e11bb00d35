// A host's MCP side for the MCP Apps interop tests: our Client, declaring `io.modelcontextprotocol/ui`
// with `apps()`, on a real `mcpwire serve github` child over stdio, with every message it sent kept.

import type { Message } from 'mcpwire';
import { tapChannel } from 'mcpwire';
import { Client, type Transport } from 'mcpwire/client';
import { apps } from 'mcpwire/extensions/apps';
import { StdioClientTransport, type StdioClientChannel } from 'mcpwire/stdio';
import { CHILD_STARTUP_WAIT, ourCliCommand } from './node-options.ts';

/** The repository root: the server's working directory, so `--import tsx` resolves. */

/** Which protocol era the host speaks: `handshake` (2025-11-25 handshake) or `auto` (2026-07-28 when offered). */
export type HostEra = 'handshake' | 'auto';

/** The connected host: close it with `await using` (the client, then the server process). */
export interface GithubAppHost extends AsyncDisposable {
  readonly client: Client;
  /** Every message the client sent, in order (batches flattened). */
  readonly sent: readonly Message[];
  /** The last 4 KiB the server wrote to stderr, for assertion messages. */
  stderr(): string;
}

/**
 * Starts `mcpwire serve github --db <db>` (from source, `:memory:` by default) and connects our Client
 * to it in `era`, declaring MCP Apps. Resolves once connected; rejects (after stopping the child) if the
 * connection fails.
 */
export async function openGithubAppHost(
  options: { era?: HostEra; db?: string } = {},
): Promise<GithubAppHost> {
  let tail = '';
  const stderr = () => (tail === '' ? '(no stderr output)' : tail);
  const sent: Message[] = [];
  const channels: StdioClientChannel[] = [];
  const stdio = new StdioClientTransport({
    ...ourCliCommand('serve', 'github', '--db', options.db ?? ':memory:'),
    stderr: (text: string) => {
      tail = (tail + text).slice(-4096);
    },
  });
  const transport: Transport = {
    connect: async () => {
      const channel = await stdio.connect();
      channels.push(channel);
      return tapChannel(channel, {
        onSend: (message) => sent.push(...(Array.isArray(message) ? message : [message as Message])),
      });
    },
  };
  const client = new Client(
    { name: 'mcpwire-apps-host', version: '1.0.0' },
    {
      era: options.era ?? 'auto',
      eraCache: false,
      extensions: [apps()],
      ...CHILD_STARTUP_WAIT,
    },
  );
  const close = async () => {
    await client.close();
    await Promise.all(channels.map((channel) => channel.close()));
  };
  try {
    await client.connect(transport);
  } catch (error) {
    await close();
    throw new Error(`could not connect to mcpwire serve github (stderr: ${stderr()})`, {
      cause: error,
    });
  }
  return { client, sent, stderr, [Symbol.asyncDispose]: close };
}
