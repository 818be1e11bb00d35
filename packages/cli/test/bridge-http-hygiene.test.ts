// Issue 25, point 4, "hygiene under load": 1,000 handshake-era sessions opened on
// `mcpwire bridge --http 0 --idle-timeout 15 --max-sessions 1000 -- <stdio server>` and abandoned (half
// after initialize alone, half after notifications/initialized too) leave no child process and no
// session once idle: every child's pid is gone (`kill(pid, 0)` throws ESRCH) and every session id
// answers 404. The cap is set to the count so all sessions are open at once (the default, 100, would
// answer 503 past it). The stdio server is the cheapest real one: `sed` answering initialize (one small
// process per session, so 1,000 fit in memory), started through `sh`, which says its pid and execs it.
// MCPWIRE_TEST_BRIDGE_SESSIONS sets the count (default 1,000, the figure). The idle timeout is
// the time a session may wait between its initialize answer and its notifications/initialized: at 2 s,
// a CI machine busy opening 1,000 children let one session lapse in that gap (its initialized got 404).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BridgeProcess, isAlive, waitGone } from './support/bridge-process.ts';
import { initializeBody, post } from './support/raw-bridge-rpc.ts';

const SESSIONS = Number(process.env.MCPWIRE_TEST_BRIDGE_SESSIONS ?? 1000);
/** Sessions being opened at a time. */
const PARALLEL = 16;

/** A handshake-era stdio server in one `sed`: every initialize request gets a fixed result; all else is dropped. */
const SED_SERVER: readonly string[] = [
  'sh',
  '-c',
  'echo "bridge-child $$ started" >&2; exec sed -u -n ' +
    `'s/^.*"id":\\([0-9]*\\),"method":"initialize".*$/{"jsonrpc":"2.0","id":\\1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"sed-server","version":"1.0.0"}}}/p'`,
];

test(
  `${SESSIONS} handshake-era sessions opened and abandoned leave no child and no session after --idle-timeout`,
  { timeout: 1_800_000 },
  async () => {
    const { bridge, url } = await BridgeProcess.start(
      ['--idle-timeout', '15', '--max-sessions', String(SESSIONS)],
      SED_SERVER,
    );
    await using _bridge = bridge;
    // If an assertion fails, no child outlives the test.
    await using _children = {
      [Symbol.asyncDispose]: async () => {
        for (const pid of bridge.childPids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      },
    };
    const sessionIds: string[] = [];
    let next = 0;
    const openOne = async (index: number): Promise<void> => {
      const answer = await post(url, initializeBody(1));
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.response?.result?.serverInfo?.name, 'sed-server', answer.text);
      assert.ok(answer.sessionId !== null, 'a session id');
      sessionIds.push(answer.sessionId);
      if (index % 2 === 1) {
        const initialized = await post(
          url,
          '{"jsonrpc":"2.0","method":"notifications/initialized"}',
          answer.sessionId,
        );
        assert.equal(initialized.status, 202, initialized.text);
      }
    };
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < SESSIONS) await openOne(next++);
      }),
    );
    await bridge.waitUntil(
      `${SESSIONS} children saying their pid`,
      () => bridge.childPids.length === SESSIONS,
    );
    const pids = bridge.childPids;
    assert.equal(new Set(pids).size, SESSIONS, 'one child per session');
    for (const pid of pids) await waitGone(pid, 600_000);
    const statuses = new Map<number, number>();
    for (const sessionId of sessionIds) {
      const answer = await post(url, '{"jsonrpc":"2.0","id":2,"method":"ping"}', sessionId);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries(statuses), { 404: SESSIONS });
    assert.equal(bridge.child.exitCode, null, 'the bridge still serves');
  },
);
