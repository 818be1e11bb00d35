// StdioClientTransport against real child processes: messages, bad lines, exits, env, shutdown.

import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import {
  isProcessAlive,
  killIfAlive,
  RecordingReceiver,
  waitUntilDead,
} from '../../../test/fixtures/stdio/recording-receiver.ts';
import { ProcessExitError, ProcessSpawnError } from './process-errors.ts';
import type { StdioClientChannel } from './stdio-client-channel.ts';
import { StdioClientTransport, type StdioClientTransportOptions } from './stdio-client-transport.ts';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../../../test/fixtures/stdio/${name}`, import.meta.url));

const channels: StdioClientChannel[] = [];
const strayPids: number[] = [];
after(async () => {
  await Promise.all(channels.map((channel) => channel.close()));
  for (const pid of strayPids) killIfAlive(pid);
});

/** Spawns `node <fixture> ...args`, opens a recording receiver on it, registers it for cleanup. */
async function start(
  name: string,
  options: Partial<StdioClientTransportOptions> & { extraArgs?: string[] } = {},
): Promise<{ channel: StdioClientChannel; receiver: RecordingReceiver }> {
  const { extraArgs = [], ...rest } = options;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fixture(name), ...extraArgs],
    stderr: 'ignore',
    shutdownTimeoutMs: 200,
    ...rest,
  });
  const channel = await transport.connect();
  channels.push(channel);
  const receiver = new RecordingReceiver();
  channel.open(receiver);
  return { channel, receiver };
}

describe('StdioClientTransport', { timeout: 20_000 }, () => {
  it('exchanges messages with the child and exposes its pid', async () => {
    const { channel, receiver } = await start('echo-server.mjs');
    assert.equal(channel.info?.isRequestResponse, undefined, 'a byte pipe: a peer may stay silent');
    assert.equal(typeof channel.info?.pid, 'number');
    await channel.send({ jsonrpc: '2.0', id: 1, method: 'ping', params: { n: '中文 😀' } });
    await channel.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await channel.send({ jsonrpc: '2.0', id: 'two', method: 'second' });
    const second = await receiver.waitForMessage((m) => m.id === 'two');
    assert.deepEqual(receiver.messages(), [
      { jsonrpc: '2.0', id: 1, result: { method: 'ping', params: { n: '中文 😀' } } },
      second,
    ]);
  });

  it('closes gracefully: the child exits on stdin EOF, handleClose has no error, close is idempotent', async () => {
    const { channel, receiver } = await start('echo-server.mjs', { shutdownTimeoutMs: 10_000 });
    const first = channel.close();
    const second = channel.close();
    await Promise.all([first, second]);
    assert.deepEqual(channel.exitStatus, { code: 0, signal: null });
    assert.deepEqual(receiver.closes, [undefined]);
    await assert.rejects(channel.send({ jsonrpc: '2.0', method: 'late' }), ConnectionClosedError);
  });

  it('delivers a non-JSON line as an invalid -32700 frame and keeps going', async () => {
    const { channel, receiver } = await start('echo-server.mjs');
    await channel.send({ jsonrpc: '2.0', id: 1, method: 'garbage' });
    await receiver.waitForMessage((m) => m.id === 1);
    const [invalid, response] = receiver.frames;
    assert.ok(invalid?.type === 'invalid');
    assert.equal(invalid.response.error.code, -32700);
    assert.deepEqual(response, {
      type: 'message',
      message: { jsonrpc: '2.0', id: 1, result: { after: 'garbage' } },
    });
  });

  it('turns an oversize stdout line into an invalid -32600 frame and reads on', async () => {
    const { channel, receiver } = await start('echo-server.mjs', { maxMessageBytes: 1000 });
    await channel.send({ jsonrpc: '2.0', id: 1, method: 'big', params: { size: 100_000 } });
    await channel.send({ jsonrpc: '2.0', id: 2, method: 'small' });
    await receiver.waitForMessage((m) => m.id === 2);
    const [oversize, next, ...rest] = receiver.frames;
    assert.ok(oversize?.type === 'invalid');
    assert.equal(oversize.response.error.code, -32600);
    assert.match(oversize.response.error.message, /at most 1000 bytes/);
    assert.equal(next?.type, 'message');
    assert.deepEqual(rest, []);
  });

  it('reports an exit mid-request once, with the code and the stderr tail', async () => {
    const stderr: string[] = [];
    const { channel, receiver } = await start('echo-server.mjs', { stderr: (text) => stderr.push(text) });
    await channel.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'crash',
      params: { code: 3, text: 'fatal: disk on fire\n' },
    });
    const error = await receiver.waitForClose();
    assert.ok(error instanceof ProcessExitError);
    assert.ok(error instanceof ConnectionClosedError);
    assert.equal(error.exitCode, 3);
    assert.equal(error.signal, null);
    assert.match(
      error.message,
      /^Server process exited with code 3; last stderr output:\nfatal: disk on fire$/,
    );
    assert.equal(stderr.join(''), 'fatal: disk on fire\n');
    assert.deepEqual(receiver.messages(), []);
    await assert.rejects(channel.send({ jsonrpc: '2.0', id: 2, method: 'after' }), ConnectionClosedError);
    await channel.close();
    assert.equal(receiver.closes.length, 1);
  });

  it('exposes stderr as a readable with the pipe option, and keeps its tail for the exit error', async () => {
    const { channel, receiver } = await start('echo-server.mjs', { stderr: 'pipe' });
    assert.ok(channel.stderr !== null);
    const chunks: string[] = [];
    channel.stderr.setEncoding('utf8');
    channel.stderr.on('data', (chunk: string) => chunks.push(chunk));
    await channel.send({ jsonrpc: '2.0', id: 1, method: 'crash', params: { code: 1, text: 'piped: bye\n' } });
    const error = await receiver.waitForClose();
    assert.ok(error instanceof ProcessExitError);
    assert.equal(error.stderrTail, 'piped: bye\n');
    await channel.close();
    assert.equal(chunks.join(''), 'piped: bye\n');
  });

  it('passes only the allow-listed environment plus the configured variables', async () => {
    process.env.MCPWIRE_TEST_SECRET = 'do-not-leak';
    try {
      const { channel, receiver } = await start('echo-server.mjs', { env: { MCPWIRE_CONFIGURED: 'yes' } });
      await channel.send({ jsonrpc: '2.0', id: 1, method: 'env' });
      const response = await receiver.waitForMessage((m) => m.id === 1);
      const env = (response.result as { env: Record<string, string> }).env;
      assert.equal(env.MCPWIRE_TEST_SECRET, undefined);
      assert.equal(env.MCPWIRE_CONFIGURED, 'yes');
      assert.equal(env.NODE_OPTIONS, undefined);
      if (process.env.PATH !== undefined) assert.equal(env.PATH, process.env.PATH);
    } finally {
      delete process.env.MCPWIRE_TEST_SECRET;
    }
  });

  it('rejects a send with ConnectionClosedError on EPIPE, without crashing', async () => {
    const { channel, receiver } = await start('echo-server.mjs');
    await channel.send({ jsonrpc: '2.0', id: 1, method: 'closeStdin' });
    await receiver.waitForMessage((m) => m.id === 1);
    const big = { jsonrpc: '2.0' as const, method: 'flood', params: { data: 'y'.repeat(1 << 20) } };
    await assert.rejects(channel.send(big), (error: unknown) => {
      assert.ok(error instanceof ConnectionClosedError);
      assert.match(error.message, /EPIPE|closed/);
      return true;
    });
    await channel.close();
  });

  it('rejects connect with ProcessSpawnError when the command does not exist', async () => {
    const transport = new StdioClientTransport({ command: 'mcpwire-no-such-command-x', stderr: 'ignore' });
    await assert.rejects(transport.connect(), (error: unknown) => {
      assert.ok(error instanceof ProcessSpawnError);
      assert.equal(error.code, 'PROCESS_SPAWN_FAILED');
      assert.match(error.message, /mcpwire-no-such-command-x.*ENOENT/);
      return true;
    });
  });

  it('rejects a bad limit or timeout when constructed', () => {
    assert.throws(() => new StdioClientTransport({ command: 'x', maxMessageBytes: 0 }), RangeError);
    assert.throws(() => new StdioClientTransport({ command: 'x', shutdownTimeoutMs: -1 }), RangeError);
  });

  it('does not run the command through a shell', async () => {
    const transport = new StdioClientTransport({ command: 'echo hi; true', stderr: 'ignore' });
    await assert.rejects(transport.connect(), ProcessSpawnError);
  });
});

describe(
  'StdioClientTransport shutdown (LIFE-13)',
  { timeout: 20_000, skip: process.platform === 'win32' },
  () => {
    it('escalates to SIGKILL for the whole process group when SIGTERM is ignored', async () => {
      const stderr: string[] = [];
      const { channel, receiver } = await start('stubborn-server.mjs', {
        stderr: (text) => stderr.push(text),
      });
      const ready = await receiver.waitForMessage((m) => m.method === 'ready');
      const { pid, grandchildPid } = ready.params as { pid: number; grandchildPid: number };
      strayPids.push(pid, grandchildPid);
      assert.equal(pid, channel.info?.pid);
      await channel.close();
      assert.deepEqual(channel.exitStatus, { code: null, signal: 'SIGKILL' });
      assert.match(stderr.join(''), /ignoring stdin EOF[\s\S]*ignoring SIGTERM/);
      assert.deepEqual(receiver.closes, [undefined]);
      await waitUntilDead(grandchildPid);
      assert.equal(isProcessAlive(grandchildPid), false);
    });

    it('stops at SIGTERM when the process group honours it', async () => {
      const { channel, receiver } = await start('stubborn-server.mjs', { extraArgs: ['--term-ok'] });
      const ready = await receiver.waitForMessage((m) => m.method === 'ready');
      const { grandchildPid } = ready.params as { grandchildPid: number };
      strayPids.push(grandchildPid);
      await channel.close();
      assert.deepEqual(channel.exitStatus, { code: null, signal: 'SIGTERM' });
      await waitUntilDead(grandchildPid);
    });

    it('closes on exit even while a grandchild holds stdout, and close() ends the leftover', async () => {
      const { channel, receiver } = await start('orphan-server.mjs');
      const ready = await receiver.waitForMessage((m) => m.method === 'ready');
      const { grandchildPid } = ready.params as { grandchildPid: number };
      strayPids.push(grandchildPid);
      const error = await receiver.waitForClose();
      assert.ok(error instanceof ProcessExitError);
      assert.equal(error.exitCode, 5);
      await channel.close();
      await waitUntilDead(grandchildPid);
      assert.equal(isProcessAlive(grandchildPid), false);
    });
  },
);
