// The HTTP benchmarks' workloads (bench/http.ts, bench/redis.ts): what each request looks like and what a
// correct answer is, over the lean raw connection of bench/raw-http.ts.
import {
  type HttpWorkload,
  type RawHttpConnection,
  type RpcMessage,
  extractResponse,
} from './http-driver.ts';

export const STATELESS = '2026-07-28';
export const HANDSHAKE = '2025-11-25';
const ACCEPT = 'application/json, text/event-stream';

const envelope = {
  'io.modelcontextprotocol/protocolVersion': STATELESS,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'mcpwire-bench', version: '0.0.0' },
} as const;

/** Distinct per call so a mixed-up answer is caught. */
const messageOf = (i: number): string => `hello ${i}`;

function checkEcho(message: RpcMessage | string, expected: string, stateless: boolean): string | undefined {
  if (typeof message === 'string') return message;
  if (message.error !== undefined) return `error: ${JSON.stringify(message.error).slice(0, 160)}`;
  const result = message.result as { content?: unknown; isError?: unknown; resultType?: unknown } | undefined;
  if (typeof result !== 'object' || result === null) return 'missing result';
  if (result.isError === true) return `tool failure: ${JSON.stringify(result.content).slice(0, 160)}`;
  const content = result.content;
  const block =
    Array.isArray(content) && content.length === 1 ? (content[0] as { text?: unknown }) : undefined;
  if (block?.text !== expected)
    return `expected text ${JSON.stringify(expected)}, received ${JSON.stringify(content).slice(0, 160)}`;
  if (stateless && result.resultType !== 'complete')
    return `expected resultType "complete", received ${JSON.stringify(result.resultType)}`;
  return undefined;
}

async function callEcho(
  connection: RawHttpConnection,
  headers: Record<string, string>,
  i: number,
  stateless: boolean,
): Promise<string | undefined> {
  const params = stateless
    ? { name: 'echo', arguments: { message: messageOf(i) }, _meta: envelope }
    : { name: 'echo', arguments: { message: messageOf(i) } };
  const answer = await connection.post(
    headers,
    JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params }),
  );
  if (answer.status !== 200) return `HTTP ${answer.status}: ${answer.body.slice(0, 160)}`;
  return checkEcho(extractResponse(answer, i), messageOf(i), stateless);
}

/** 2026-07-28: no handshake, no session; every POST carries the envelope and the routing headers. */
export const stateless: HttpWorkload = {
  name: `stateless ${STATELESS}`,
  setup: async () => ({
    accept: ACCEPT,
    'mcp-protocol-version': STATELESS,
    'mcp-method': 'tools/call',
    'mcp-name': 'echo',
  }),
  call: (connection, headers, i) => callEcho(connection, headers, i, true),
};

/** 2025-11-25 without initialize or session: mcpwire's `sessions: false`, the official v1 SDK's `sessionIdGenerator: undefined`. */
export const sessionless: HttpWorkload = {
  name: `sessionless ${HANDSHAKE}`,
  setup: async () => ({ accept: ACCEPT, 'mcp-protocol-version': HANDSHAKE }),
  call: (connection, headers, i) => callEcho(connection, headers, i, false),
};

/** The 2025 lifecycle over HTTP: initialize (answer must carry a session id), then notifications/initialized. */
export async function openSession(connection: RawHttpConnection): Promise<string> {
  const initialize = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: HANDSHAKE,
      capabilities: {},
      clientInfo: { name: 'mcpwire-bench', version: '0.0.0' },
    },
  };
  const answer = await connection.post({ accept: ACCEPT }, JSON.stringify(initialize));
  if (answer.status !== 200)
    throw new Error(`initialize: HTTP ${answer.status}: ${answer.body.slice(0, 160)}`);
  const message = extractResponse(answer, 0);
  if (typeof message === 'string') throw new Error(`initialize: ${message}`);
  const version = (message.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  if (version !== HANDSHAKE)
    throw new Error(`initialize: negotiated ${JSON.stringify(version)}, wanted ${HANDSHAKE}`);
  const sessionId = answer.sessionId;
  if (sessionId === undefined) throw new Error('initialize: no Mcp-Session-Id header');
  const initialized = await connection.post(
    { accept: ACCEPT, 'mcp-session-id': sessionId, 'mcp-protocol-version': HANDSHAKE },
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  );
  if (initialized.status !== 202 && initialized.status !== 200)
    throw new Error(
      `notifications/initialized: HTTP ${initialized.status}: ${initialized.body.slice(0, 160)}`,
    );
  return sessionId;
}

export const stateful: HttpWorkload = {
  name: `stateful ${HANDSHAKE}`,
  setup: async (connection) => ({
    accept: ACCEPT,
    'mcp-session-id': await openSession(connection),
    'mcp-protocol-version': HANDSHAKE,
  }),
  call: (connection, headers, i) => callEcho(connection, headers, i, false),
};
