// The few Streamable HTTP requests the cross-node tests send: a POST, a session opened with
// elicitation, the one message of a POST's answer.

import assert from 'node:assert/strict';
import type { HttpServerHandle } from 'mcpwire/node';
import { SseFrames } from './sse.ts';

/** POSTs `body` as JSON to `handle`'s endpoint, accepting JSON or SSE. */
export function postTo(
  handle: HttpServerHandle,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
) {
  return fetch(handle.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** Initializes on `handle` (with elicitation) and sends initialized; the session's headers. */
export async function open(handle: HttpServerHandle): Promise<Record<string, string>> {
  const response = await postTo(handle, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: {} },
      clientInfo: { name: 'r', version: '1' },
    },
  });
  assert.equal(response.status, 200);
  await response.text();
  const sessionId = response.headers.get('mcp-session-id');
  assert.ok(sessionId);
  const headers = { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' };
  const initialized = await postTo(handle, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  assert.equal(initialized.status, 202);
  return headers;
}

/** The one JSON-RPC message of a POST's answer, JSON or SSE. */
export async function answerOf(response: Response): Promise<Record<string, unknown>> {
  if (response.headers.get('content-type')?.startsWith('application/json'))
    return (await response.json()) as never;
  return new SseFrames(response).nextMessage();
}
