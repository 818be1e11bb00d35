// Issue 25, point 4: concurrent `mcpwire bridge <url>` instances against an OAuth-protected server
// (`mcpwire serve everything --http <port> --auth dev`) with one empty token store complete ONE login.
// Every login passes through the consent page, which this test answers (no browser): each
// authorization URL a bridge prints is approved and its redirect followed, so the URLs counted are the
// logins (token grants by authorization code) and the distinct client_ids in them the registrations.
// MCPWIRE_TEST_BRIDGE_LOGINS sets the number of bridges (default 20, the figure).

import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { childEnv, MCPWIRE, ROOT } from './support/cli-process.ts';
import { approveConsent, startProtectedServer } from './support/dev-auth-server.ts';

const INSTANCES = Number(process.env.MCPWIRE_TEST_BRIDGE_LOGINS ?? 20);

const INITIALIZE =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}';
const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
const CALL = (text: string): string =>
  `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"${text}"}}}`;

/** One `mcpwire bridge <url>` child: lines in, responses by id out, every authorization URL it prints. */
class RawBridge implements AsyncDisposable {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<unknown>;
  stderr = '';
  readonly #responses = new Map<number, string>();
  readonly #waiters = new Set<() => void>();

  constructor(args: readonly string[], onAuthorizationUrl: (url: string) => void) {
    this.child = spawn(MCPWIRE[0]!, [...MCPWIRE.slice(1), 'bridge', ...args], {
      cwd: ROOT,
      env: childEnv(),
      stdio: 'pipe',
    });
    this.exited = once(this.child, 'exit');
    this.child.stdin.on('error', () => {});
    let seen = 0;
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
      const urls = [...this.stderr.matchAll(/^ {2}(https?:\/\/\S+)$/gm)].map((match) => match[1]!);
      for (const url of urls.slice(seen)) onAuthorizationUrl(url);
      seen = urls.length;
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const id = (JSON.parse(line) as { id?: unknown }).id;
      if (typeof id === 'number') this.#responses.set(id, line);
      this.#notify();
    });
    this.child.once('exit', () => this.#notify());
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** The response with `id`; rejects when the bridge exits first. */
  response(id: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const line = this.#responses.get(id);
        if (line !== undefined) {
          this.#waiters.delete(check);
          resolve(line);
        } else if (this.child.exitCode !== null || this.child.signalCode !== null) {
          this.#waiters.delete(check);
          reject(new Error(`the bridge exited before answering ${id}:\n${this.stderr}`));
        }
      };
      this.#waiters.add(check);
      check();
    });
  }

  #notify(): void {
    for (const check of [...this.#waiters]) check();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}

test(
  `${INSTANCES} concurrent "bridge <url>" on one empty token store: one registration, one login, each serves a tool call`,
  { timeout: 900_000 },
  async () => {
    await using server = await startProtectedServer();
    const home = await mkdtemp(join(tmpdir(), 'mcpwire-bridge-logins-'));
    await using _home = { [Symbol.asyncDispose]: () => rm(home, { recursive: true, force: true }) };
    const storePath = join(home, 'oauth', 'tokens.json');
    const approved: string[] = [];
    const consents: Promise<void>[] = [];
    const approve = (url: string): void => {
      approved.push(url);
      consents.push(
        (async () => {
          const landing = await fetch(await approveConsent(url));
          assert.equal(landing.status, 200, await landing.text());
        })(),
      );
    };
    const bridges: RawBridge[] = [];
    await using _bridges = {
      [Symbol.asyncDispose]: async () => {
        await Promise.all(bridges.map((bridge) => bridge[Symbol.asyncDispose]()));
      },
    };
    for (let index = 0; index < INSTANCES; index++)
      bridges.push(new RawBridge([server.url, '--token-store', storePath, '--auth-timeout', '600'], approve));
    // All of them at once: each initialize meets the 401 that starts the OAuth flow.
    for (const bridge of bridges) bridge.send(INITIALIZE);
    await Promise.all(
      bridges.map(async (bridge, index) => {
        assert.match(await bridge.response(1), /"result":\{/, bridge.stderr);
        bridge.send(INITIALIZED);
        bridge.send(CALL(`bridge ${index}`));
        assert.match(await bridge.response(2), new RegExp(`"text":"bridge ${index}"`), bridge.stderr);
      }),
    );
    await Promise.all(consents);
    const clientIds = new Set(approved.map((url) => new URL(url).searchParams.get('client_id')));
    assert.deepEqual(
      { logins: approved.length, registrations: clientIds.size },
      { logins: 1, registrations: 1 },
      `every bridge printed an authorization URL of its own:\n${approved.join('\n')}`,
    );
    const store = JSON.parse(await readFile(storePath, 'utf8')) as {
      issuers: Record<string, { client?: { client_id: string } }>;
    };
    assert.deepEqual(Object.keys(store.issuers), [server.issuer]);
    assert.ok(clientIds.has(store.issuers[server.issuer]!.client!.client_id), 'the stored client logged in');
  },
);
