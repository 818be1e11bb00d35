// Development aid: drive a running server's stateless tools/call echo for a few seconds (no measurement).
// node --import tsx bench/drive.ts <url> [seconds] [connections] [stateless|stateful|sessionless]
import { RawHttpConnection } from './raw-http.ts';

const url = new URL(process.argv[2]!);
const seconds = Number(process.argv[3] ?? 5);
const connections = Number(process.argv[4] ?? 16);
const mode = process.argv[5] ?? 'stateless';
const isStateful = mode === 'stateful';
/** 2025-11-25 with no initialize and no session (a server run with --no-sessions). */
const sessionlessHeaders = {
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};
const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'drive', version: '0.0.0' },
};
const headers = {
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
};
let done = false;
let count = 0;
setTimeout(() => (done = true), seconds * 1000);
await Promise.all(
  Array.from({ length: connections }, async (_, lane) => {
    const c = new RawHttpConnection(url);
    let sessionHeaders: Record<string, string> | undefined =
      mode === 'sessionless' ? sessionlessHeaders : undefined;
    if (isStateful) {
      const accept = { accept: headers.accept };
      const init = await c.post(
        accept,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'drive', version: '0' },
          },
        }),
      );
      sessionHeaders = {
        ...accept,
        'mcp-session-id': init.sessionId!,
        'mcp-protocol-version': '2025-11-25',
      };
      await c.post(sessionHeaders, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    }
    for (let i = lane + 1; !done; i += connections) {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: sessionHeaders
          ? { name: 'echo', arguments: { message: `hello ${i}` } }
          : { name: 'echo', arguments: { message: `hello ${i}` }, _meta: envelope },
      });
      const answer = await c.post(sessionHeaders ?? headers, body);
      if (answer.status !== 200) throw new Error(answer.body);
      count++;
    }
    c.close();
  }),
);
console.log(`${count} calls, ${(count / seconds).toFixed(0)}/s`);
