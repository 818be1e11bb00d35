// `mcpwire bridge --config <file>`: several servers as one. The real command runs as a child in
// front of real upstreams (`serve everything` and two `serve github`, whose names collide), driven
// by our Client and the official v1 client over stdio: names, routing, collisions, filters, a list
// change from one upstream, an upstream killed (SIGKILL) and restarted.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as OfficialStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client } from 'mcpwire/client';
import type { LoggingMessageNotificationParams } from 'mcpwire';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { StdioClientTransport } from 'mcpwire/stdio';
import { ourCliCommand, testChildEnv } from '../../../test/support/node-options.ts';
import { BridgeProcess } from './support/bridge-process.ts';
import { MCPWIRE } from './support/cli-process.ts';

const info = { name: 'bridge-aggregate-test', version: '1.0.0' };
const LONG = { timeout: 180_000 };
const work = mkdtempSync(join(tmpdir(), 'mcpwire-bridge-aggregate-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A config entry that starts `mcpwire serve <args>` from source (the test's NODE_OPTIONS passed on). */
function serveEntry(...args: string[]): object {
  return { command: MCPWIRE[0], args: [...MCPWIRE.slice(1), 'serve', ...args], env: testChildEnv() };
}

// "git.hub" and "git_hub" both map to git_hub: every tool of the two collides after mapping.
const config = join(work, 'mcp.json');
writeFileSync(
  config,
  JSON.stringify({
    mcpServers: {
      everything: serveEntry('everything'),
      'git.hub': serveEntry('github', '--db', ':memory:'),
      git_hub: serveEntry('github', '--db', ':memory:'),
    },
  }),
);

/** The collision rule of docs/bridge.md, written out independently: 55 characters, `_`, 8 hex. */
function hashedName(server: string, name: string): string {
  const text = `${server}__${name}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const hash = createHash('sha256').update(`${server}\u0000${name}`).digest('hex').slice(0, 8);
  return `${text.slice(0, 55)}_${hash}`;
}

function textOf(result: object): string {
  const [first] = (result as { content: Array<{ type: string; text: string }> }).content;
  return first!.text;
}

/** The bridge's stderr, kept, with a wait for a line matching a pattern. */
class StderrLog {
  text = '';
  #waiters: Array<() => void> = [];
  readonly write = (chunk: string): void => {
    this.text += chunk;
    for (const wake of this.#waiters.splice(0)) wake();
  };
  async waitFor(pattern: RegExp, from = 0): Promise<RegExpMatchArray> {
    for (;;) {
      const found = this.text.slice(from).match(pattern);
      if (found) return found;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }
}

function nextEvent(client: Client, event: 'toolsListChanged'): Promise<void> {
  return new Promise((resolve) => {
    const off = client.on(event, () => {
      off();
      resolve();
    });
  });
}

describe('mcpwire bridge --config: several servers as one', { concurrency: 1 }, () => {
  test(
    'our client: names, a collision, filters, routing, a list change, an upstream killed and restarted',
    LONG,
    async () => {
      const stderr = new StderrLog();
      const client = new Client(info, { requestTimeoutMs: 120_000, eraCache: false, era: 'handshake' });
      const command = ourCliCommand(
        'bridge',
        '--config',
        config,
        '--deny',
        'everything__test_error_*',
        '--deny',
        '*__delete_*',
      );
      await client.connect(new StdioClientTransport({ ...command, stderr: stderr.write }));
      try {
        const names = (await client.listAllTools()).map((tool) => tool.name);
        for (const name of names) assert.match(name, /^[A-Za-z0-9_-]{1,64}$/);
        assert.equal(new Set(names).size, names.length, 'every name once');
        // Prefixed; the same tool name in two upstreams is two names.
        assert.ok(names.includes('everything__echo'), names.join(', '));
        // Collision: both "git.hub" and "git_hub" map to git_hub__search_issues; each gets its hash.
        assert.ok(!names.includes('git_hub__search_issues'), names.join(', '));
        const dotted = hashedName('git.hub', 'search_issues');
        const underscored = hashedName('git_hub', 'search_issues');
        assert.ok(
          names.includes(dotted) && names.includes(underscored),
          `${names.join(', ')}\n${stderr.text}`,
        );
        // Filters: --deny patterns over aggregate names.
        assert.ok(!names.includes('everything__test_error_handling'), names.join(', '));
        assert.ok(!names.some((name) => name.includes('__delete_')), names.join(', '));

        // Routing: each name reaches its own upstream, with the upstream's own name.
        const echo = await client.callTool({
          name: 'everything__echo',
          arguments: { message: 'one of three' },
        });
        assert.equal(textOf(echo), 'one of three');
        const found = await client.callTool({
          name: dotted,
          arguments: { query: 'login', owner: 'acme', repo: 'webapp' },
        });
        assert.notEqual(found.isError, true, JSON.stringify(found));
        await assert.rejects(client.callTool({ name: 'everything__test_error_handling', arguments: {} }), {
          code: -32_602,
        });

        // A list change from one upstream reaches the client, and the new tool is listed.
        const changed = nextEvent(client, 'toolsListChanged');
        await client.callTool({ name: 'everything__test_trigger_tool_change', arguments: {} });
        await changed;
        const afterChange = (await client.listAllTools()).map((tool) => tool.name);
        assert.ok(afterChange.includes('everything__test_dynamic_tool'), afterChange.join(', '));

        // An upstream killed: its tools withdrawn with a list change, a log message to a client that
        // set a level, the others served, names unchanged; restarted, its tools come back.
        const logs: LoggingMessageNotificationParams[] = [];
        client.on('log', (params) => logs.push(params));
        await client.setLoggingLevel({ level: 'info' });
        const [, pid] = await stderr.waitFor(/upstream server "git_hub": live \(pid (\d+)\)/);
        const mark = stderr.text.length;
        const withdrawn = nextEvent(client, 'toolsListChanged');
        process.kill(Number(pid), 'SIGKILL');
        await withdrawn;
        const restored = nextEvent(client, 'toolsListChanged');
        const whileDown = (await client.listAllTools()).map((tool) => tool.name);
        assert.ok(!whileDown.includes(underscored), whileDown.join(', '));
        assert.ok(whileDown.includes(dotted), 'the other one keeps its name while git_hub is down');
        // A call to its (unlisted) name while it is down: an error naming it.
        await assert.rejects(client.callTool({ name: underscored, arguments: {} }), {
          message: /upstream server "git_hub" is down/,
        });
        assert.match(stderr.text.slice(mark), /upstream server "git_hub": down/);
        await restored;
        const back = (await client.listAllTools()).map((tool) => tool.name);
        assert.ok(back.includes(underscored), back.join(', '));
        assert.deepEqual(back.toSorted(), afterChange.toSorted(), 'the same names as before the kill');
        const again = await client.callTool({
          name: underscored,
          arguments: { query: 'login', owner: 'acme', repo: 'webapp' },
        });
        assert.notEqual(again.isError, true, JSON.stringify(again));
        assert.ok(
          logs.some((log) => log.logger === 'mcpwire-bridge' && /"git_hub": down/.test(String(log.data))),
          JSON.stringify(logs),
        );
        await stderr.waitFor(/upstream server "git_hub": live \(pid (\d+)\)/, mark);
      } finally {
        await client.close();
      }
    },
  );

  test(
    'the official v1 client: lists and calls through the aggregate, names filtered by --allow',
    LONG,
    async () => {
      const client = new OfficialClient(info, { capabilities: {} });
      const command = ourCliCommand(
        'bridge',
        '--config',
        config,
        'everything',
        'git.hub',
        '--allow',
        'everything__*',
      );
      await client.connect(new OfficialStdioClientTransport({ ...command, stderr: 'ignore' }));
      try {
        const { tools } = await client.listTools();
        assert.ok(tools.length > 0);
        for (const tool of tools) assert.match(tool.name, /^everything__[A-Za-z0-9_-]+$/);
        const echo = await client.callTool({ name: 'everything__echo', arguments: { message: 'v1' } });
        assert.equal(textOf(echo), 'v1');
        const { prompts } = await client.listPrompts();
        assert.ok(prompts.some((prompt) => prompt.name === 'everything__test_simple_prompt'));
        const prompt = await client.getPrompt({ name: 'everything__test_simple_prompt' });
        assert.ok(prompt.messages.length > 0);
        const read = await client.readResource({ uri: 'test://static-text' });
        assert.ok(read.contents.length > 0);
      } finally {
        await client.close();
      }
    },
  );

  test('--http: one aggregate for every session, in both eras', LONG, async () => {
    await using bridge = new BridgeProcess(['--http', '0', '--config', config, 'everything', 'git.hub']);
    const [url] = await bridge.waitForStderr(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
    const handshake = new Client(info, { era: 'handshake', eraCache: false, requestTimeoutMs: 120_000 });
    const stateless = new Client(info, { era: 'stateless', eraCache: false, requestTimeoutMs: 120_000 });
    await handshake.connect(new StreamableHttpClientTransport(url!));
    await stateless.connect(new StreamableHttpClientTransport(url!));
    try {
      assert.equal(stateless.era, 'stateless');
      for (const client of [handshake, stateless]) {
        const names = (await client.listAllTools()).map((tool) => tool.name);
        assert.ok(
          names.includes('everything__echo') && names.includes('git_hub__get_issue'),
          names.join(', '),
        );
        const echo = await client.callTool({ name: 'everything__echo', arguments: { message: client.era! } });
        assert.equal(textOf(echo), client.era);
      }
      // One set of upstream processes for both sessions: each upstream said it was live once.
      assert.equal(bridge.stderr.match(/upstream server "everything": live/g)?.length, 1, bridge.stderr);
    } finally {
      await handshake.close();
      await stateless.close();
    }
  });

  test(
    'forwarded both ways: an elicitation, progress; a call in flight when its upstream dies gets an error naming it',
    LONG,
    async () => {
      const stderr = new StderrLog();
      const elicited: string[] = [];
      const client = new Client(info, {
        era: 'handshake',
        eraCache: false,
        requestTimeoutMs: 120_000,
        handlers: {
          elicitation: (params) => {
            elicited.push(params.message);
            return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
          },
        },
      });
      await client.connect(
        new StdioClientTransport({
          ...ourCliCommand('bridge', '--config', config, 'everything'),
          stderr: stderr.write,
        }),
      );
      try {
        const elicit = await client.callTool({
          name: 'everything__test_elicitation',
          arguments: { message: 'who?' },
        });
        assert.deepEqual(elicited, ['who?']);
        assert.match(textOf(elicit), /ada/);
        const [, pid] = await stderr.waitFor(/upstream server "everything": live \(pid (\d+)\)/);
        let isKilled = false;
        const slow = client.callTool(
          { name: 'everything__test_tool_slow', arguments: { durationMs: 600_000 } },
          {
            // The first progress says the call reached the upstream: kill it then.
            onProgress: () => {
              if (isKilled) return;
              isKilled = true;
              process.kill(Number(pid), 'SIGKILL');
            },
          },
        );
        await assert.rejects(slow, { code: -32_603, message: /upstream server "everything" failed/ });
      } finally {
        await client.close();
      }
    },
  );
});
