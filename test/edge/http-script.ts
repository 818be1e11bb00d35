// The requests every runtime test sends, as raw HTTP with fetch: stateless-era calls (2026-07-28, the
// `_meta` envelope and MCP headers on each request) and one handshake-era session (2025-11-25).

/** A JSON-RPC response body, loosely typed for assertions. */
export type Loose = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const STATELESS = '2026-07-28';
const HANDSHAKE = '2025-11-25';
const NAMED: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

let nextId = 1;

/** One stateless-era request; resolves to the JSON-RPC response (`result` or `error`). */
export async function sendStateless(url: string, method: string, params: Loose = {}): Promise<Loose> {
  const name = NAMED[method] === undefined ? undefined : params[NAMED[method]];
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': STATELESS,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': STATELESS,
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
          'io.modelcontextprotocol/clientInfo': { name: 'edge-test', version: '1.0.0' },
        },
      },
    }),
  });
  return readRpc(response);
}

/** A handshake-era session over one endpoint: initialize, then requests carrying `Mcp-Session-Id`. */
export class HandshakeSession {
  readonly #url: string;
  #sessionId: string | undefined;

  constructor(url: string) {
    this.#url = url;
  }

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** `initialize` then `notifications/initialized`; resolves to the initialize response. */
  async open(): Promise<Loose> {
    const response = await this.#post({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'initialize',
      params: {
        protocolVersion: HANDSHAKE,
        capabilities: {},
        clientInfo: { name: 'edge-test', version: '1.0.0' },
      },
    });
    this.#sessionId = response.headers.get('mcp-session-id') ?? undefined;
    const body = await readRpc(response);
    const initialized = await this.#post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await initialized.body?.cancel();
    if (initialized.status !== 202)
      throw new Error(`notifications/initialized answered ${initialized.status}`);
    return body;
  }

  /** One request in the session. */
  async send(method: string, params: Loose = {}): Promise<Loose> {
    return readRpc(await this.#post({ jsonrpc: '2.0', id: nextId++, method, params }));
  }

  /** DELETE: ends the session; resolves to the status. */
  async close(): Promise<number> {
    const response = await fetch(this.#url, { method: 'DELETE', headers: this.#headers() });
    await response.body?.cancel();
    return response.status;
  }

  #post(message: Loose): Promise<Response> {
    return fetch(this.#url, { method: 'POST', headers: this.#headers(), body: JSON.stringify(message) });
  }

  #headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(this.#sessionId === undefined
        ? {}
        : { 'mcp-session-id': this.#sessionId, 'mcp-protocol-version': HANDSHAKE }),
    };
  }
}

/** The JSON-RPC response in a JSON body or in the last `data:` event of an SSE body that carries an id. */
async function readRpc(response: Response): Promise<Loose> {
  const text = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${text}`);
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream'))
    return JSON.parse(text) as Loose;
  const messages = text
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)) as Loose);
  const answer = messages.findLast(
    (message) => 'id' in message && ('result' in message || 'error' in message),
  );
  if (answer === undefined) throw new Error(`no response in the SSE stream:\n${text}`);
  return answer;
}

/** The text of a tool result's first content block. */
export function textOf(result: Loose): string {
  return String(result['content']?.[0]?.text);
}
