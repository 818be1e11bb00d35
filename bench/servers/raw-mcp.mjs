// A hand-written JSON-RPC server that speaks just enough of the 2025 lifecycle for a real MCP client
// (initialize, notifications, tools/list, tools/call echo, ping), for bench/load.ts: the server is
// cheap, so the figures are the load drivers'. No SDK, no validation. For bench/stdio.ts's hand-written
// row it also answers the 2026-07-28 shape: `server/discover`, and `resultType: "complete"` on a result
// whose request carries the per-request `_meta` protocol version (nothing in the envelope is checked).
//   node bench/servers/raw-mcp.mjs stdio          NDJSON on stdin/stdout
//   node bench/servers/raw-mcp.mjs http [port]    POST /mcp on 127.0.0.1 (JSON answers, Mcp-Session-Id);
//                                                 prints `raw-mcp at http://127.0.0.1:<port>/mcp` on stderr
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';

const TOOLS = {
  tools: [
    {
      name: 'echo',
      description: 'Returns its message.',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
  ],
};

const STATELESS = 'io.modelcontextprotocol/protocolVersion';

const DISCOVER = {
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  serverInfo: { name: 'raw-mcp', version: '0.0.0' },
  resultType: 'complete',
};

/** The result of one request, or an error object. */
function answer(message) {
  switch (message.method) {
    case 'server/discover':
      return { result: DISCOVER };
    case 'initialize':
      return {
        result: {
          protocolVersion: message.params?.protocolVersion ?? '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'raw-mcp', version: '0.0.0' },
        },
      };
    case 'tools/call': {
      const content = [{ type: 'text', text: message.params?.arguments?.message ?? '' }];
      const isStateless = message.params?._meta?.[STATELESS] !== undefined;
      return { result: isStateless ? { content, resultType: 'complete' } : { content } };
    }
    case 'tools/list':
      return { result: TOOLS };
    case 'ping':
      return { result: {} };
    default:
      return { error: { code: -32601, message: `Method not found: ${message.method}` } };
  }
}

/** The response line to `text` (one JSON-RPC message), or undefined for a notification. */
function respond(text) {
  const message = JSON.parse(text);
  if (message.id === undefined || message.method === undefined) return undefined;
  return JSON.stringify({ jsonrpc: '2.0', id: message.id, ...answer(message) });
}

if (process.argv[2] === 'stdio') {
  let buffer = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    let out = '';
    let start = 0;
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n', start)) {
      const line = buffer.slice(start, end);
      start = end + 1;
      if (line.trim() === '') continue;
      const response = respond(line);
      if (response !== undefined) out += response + '\n';
    }
    buffer = buffer.slice(start);
    if (out !== '') process.stdout.write(out);
  });
  process.stdin.on('end', () => process.exit(0));
} else {
  const server = createServer((req, res) => {
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST, DELETE' }).end();
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const response = respond(text);
      if (response === undefined) return void res.writeHead(202).end();
      const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(response) };
      if (text.includes('"initialize"')) headers['mcp-session-id'] = randomUUID();
      res.writeHead(200, headers).end(response);
    });
  });
  server.listen(Number(process.argv[3] ?? 0), '127.0.0.1');
  await once(server, 'listening');
  process.stderr.write(`raw-mcp at http://127.0.0.1:${server.address().port}/mcp\n`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));
}
