// `mcpwire bridge --http`: how sessions and their children end. DELETE, the idle timeout, a child
// that exits, the bridge stopping: each leaves no child behind (`kill(pid, 0)` then throws ESRCH),
// and a session that is over answers 404 so the client initializes again. Then the caps and checks
// of the HTTP side: --max-sessions (503), the Host check (403), an unknown session (404).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { describe, test } from 'node:test';
import { BridgeProcess, isAlive, waitGone } from './support/bridge-process.ts';
import {
  callBody,
  deleteSession,
  initializeBody,
  openSession,
  post,
  resultText,
} from './support/raw-bridge-rpc.ts';

/**
 * The one child process of the bridge `pid`, read from /proc: asking the child itself would be
 * activity on its session, and under a loaded machine would race the idle timeout being tested.
 */
function onlyChildOf(pid: number | undefined): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ');
  assert.equal(children.length, 1, `the bridge has one child: ${children.join(', ')}`);
  return Number(children[0]);
}

/** The pid of the child serving `sessionId`, as it says itself. */
async function childPid(url: string, sessionId: string): Promise<number> {
  const pid = Number(resultText(await post(url, callBody(90, 'pid'), sessionId)));
  assert.ok(Number.isInteger(pid) && isAlive(pid), `pid ${pid}`);
  return pid;
}

describe('mcpwire bridge --http: sessions and children', { concurrency: 3 }, () => {
  test('DELETE ends the session and stops its child; the id is then 404, and initialize starts a new child', async () => {
    const { bridge, url } = await BridgeProcess.start();
    await using _bridge = bridge;
    const sessionId = await openSession(url);
    const pid = await childPid(url, sessionId);
    assert.equal(await deleteSession(url, sessionId), 204);
    await waitGone(pid);
    const after = await post(url, callBody(2, 'echo', { text: 'x' }), sessionId);
    assert.equal(after.status, 404, after.text);
    const again = await openSession(url);
    assert.notEqual(await childPid(url, again), pid);
  });

  test('an idle session is reaped with its child after --idle-timeout; its id is then 404', async () => {
    // 2 s: enough for initialize and notifications/initialized back to back on a loaded machine.
    const { bridge, url } = await BridgeProcess.start(['--idle-timeout', '2']);
    await using _bridge = bridge;
    const sessionId = await openSession(url);
    const pid = onlyChildOf(bridge.child.pid);
    await waitGone(pid);
    const after = await post(url, callBody(2, 'echo', { text: 'x' }), sessionId);
    assert.equal(after.status, 404, after.text);
  });

  test('a child that exits ends its session: the pending call gets an error naming the exit code, the next request 404', async () => {
    const { bridge, url } = await BridgeProcess.start();
    await using _bridge = bridge;
    const sessionId = await openSession(url);
    const pid = await childPid(url, sessionId);
    const crashed = await post(url, callBody(5, 'crash'), sessionId);
    assert.equal(crashed.status, 200, crashed.text);
    assert.equal(crashed.response?.id, 5);
    assert.match(String(crashed.response?.error?.message), /exited with code 3/);
    assert.deepEqual(crashed.response?.error?.data, { exitCode: 3, signal: null });
    assert.equal(isAlive(pid), false);
    const after = await post(url, callBody(6, 'echo', { text: 'x' }), sessionId);
    assert.equal(after.status, 404, after.text);
    await bridge.waitForStderr(/the server process exited with code 3; its session is over/);
  });

  test('SIGTERM stops the bridge and every child; exit code 0, nothing on stdout', async () => {
    const { bridge, url } = await BridgeProcess.start();
    await using _bridge = bridge;
    const pids = [await childPid(url, await openSession(url)), await childPid(url, await openSession(url))];
    bridge.child.kill('SIGTERM');
    assert.deepEqual(await bridge.exited, { code: 0, signal: null });
    for (const pid of pids) assert.equal(isAlive(pid), false, `child ${pid} left behind`);
    assert.equal(bridge.stdout, '');
  });

  test('--max-sessions 1: a second initialize gets 503 naming the cap, and succeeds once the first session ends', async () => {
    const { bridge, url } = await BridgeProcess.start(['--max-sessions', '1']);
    await using _bridge = bridge;
    const first = await openSession(url);
    const pid = await childPid(url, first);
    const refused = await post(url, initializeBody());
    assert.equal(refused.status, 503, refused.text);
    assert.match(String(refused.response?.error?.message), /at most 1 server processes \(--max-sessions\)/);
    // The first session still works: a full bridge evicts nobody.
    assert.equal(resultText(await post(url, callBody(3, 'echo', { text: 'still' }), first)), 'still');
    assert.equal(await deleteSession(url, first), 204);
    await waitGone(pid);
    const later = await post(url, initializeBody());
    assert.equal(later.status, 200, later.text);
  });

  test('a Host header naming another host gets 403 and starts no child; an unknown session id 404', async () => {
    const { bridge, url } = await BridgeProcess.start();
    await using _bridge = bridge;
    const request = httpRequest(url, {
      method: 'POST',
      headers: {
        Host: 'attacker.example',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
    });
    request.end(initializeBody());
    const [response] = (await once(request, 'response')) as [IncomingMessage];
    response.resume();
    assert.equal(response.statusCode, 403);
    const unknown = await post(
      url,
      callBody(1, 'echo', { text: 'x' }),
      '00000000-0000-4000-8000-000000000000',
    );
    assert.equal(unknown.status, 404, unknown.text);
    assert.deepEqual(bridge.childPids, []);
  });

  test("--max-sessions 1 counts session children: at the cap an initialize gets 503, a stateless-era request goes to the front's shared child", async () => {
    const { bridge, url } = await BridgeProcess.start(['--max-sessions', '1']);
    await using _bridge = bridge;
    await openSession(url);
    const discover = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'server/discover',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    const text = await discover.text();
    assert.equal(discover.status, 200, text);
    assert.equal(bridge.childPids.length, 2, "the session's child and the front's shared child");
    const second = await post(url, initializeBody(2));
    assert.equal(second.status, 503, second.text);
    assert.equal(bridge.childPids.length, 2, 'no third child was started');
  });

  test("serve --http's checks: a foreign Origin gets 403; with --auth dev, initialize without a token gets the 401 challenge; neither starts a child", async () => {
    const { bridge, url } = await BridgeProcess.start();
    await using _bridge = bridge;
    const foreign = await fetch(url, {
      method: 'POST',
      headers: {
        Origin: 'https://evil.example',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: initializeBody(),
    });
    await foreign.body?.cancel();
    assert.equal(foreign.status, 403);
    assert.deepEqual(bridge.childPids, []);

    const { bridge: guarded, url: guardedUrl } = await BridgeProcess.start(['--auth', 'dev']);
    await using _guarded = guarded;
    assert.match(guarded.stderr, /tokens required, from the development authorization server at /);
    const bare = await post(guardedUrl, initializeBody());
    assert.equal(bare.status, 401, bare.text);
    assert.deepEqual(guarded.childPids, []);
  });
});
