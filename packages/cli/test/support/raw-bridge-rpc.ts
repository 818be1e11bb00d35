// Raw Streamable HTTP exchanges with a bridge, for tests that need the status codes and the exact
// messages: initialize, a request in a session (JSON or SSE answer), DELETE.

const ACCEPT = 'application/json, text/event-stream';
export const REVISION = '2025-11-25';

/** An `initialize` request body. */
export function initializeBody(id: number | string = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: REVISION,
      capabilities: {},
      clientInfo: { name: 'bridge-test', version: '1' },
    },
  });
}

/** What one POST got: its status, session id header, and the JSON-RPC response in its body (JSON or SSE). */
export interface RawAnswer {
  status: number;
  sessionId: string | null;
  text: string;
  response: Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** POSTs `body` (in session `sessionId` if given) and reads the whole answer. */
export async function post(url: string, body: string, sessionId?: string): Promise<RawAnswer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: ACCEPT };
  if (sessionId !== undefined) {
    headers['Mcp-Session-Id'] = sessionId;
    headers['MCP-Protocol-Version'] = REVISION;
  }
  const reply = await fetch(url, { method: 'POST', headers, body });
  const text = await reply.text();
  return {
    status: reply.status,
    sessionId: reply.headers.get('mcp-session-id'),
    text,
    response: responseIn(text),
  };
}

/** Opens a session: initialize, then notifications/initialized. Resolves with its id. */
export async function openSession(url: string): Promise<string> {
  const answer = await post(url, initializeBody());
  if (answer.status !== 200 || answer.sessionId === null)
    throw new Error(`initialize answered ${answer.status}: ${answer.text}`);
  const initialized = await post(
    url,
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    answer.sessionId,
  );
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return answer.sessionId;
}

/** A tools/call request body. */
export function callBody(id: number, name: string, args: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
}

/** The text of a tool result's first content item. */
export function resultText(answer: RawAnswer): string {
  const text = answer.response?.result?.content?.[0]?.text;
  if (typeof text !== 'string') throw new Error(`no tool result in ${answer.status}: ${answer.text}`);
  return text;
}

/** DELETE of the session; resolves with the status. */
export async function deleteSession(url: string, sessionId: string): Promise<number> {
  const reply = await fetch(url, {
    method: 'DELETE',
    headers: { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': REVISION },
  });
  await reply.body?.cancel();
  return reply.status;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function responseIn(text: string): Record<string, any> | undefined {
  const candidates = text.trimStart().startsWith('{')
    ? [text]
    : text.split('\n').flatMap((line) => (line.startsWith('data: ') ? [line.slice(6)] : []));
  for (const candidate of candidates) {
    try {
      const message = JSON.parse(candidate) as Record<string, unknown>;
      if ('result' in message || 'error' in message) return message;
    } catch {
      // Not JSON (a priming event's empty data): the next one.
    }
  }
  return undefined;
}
