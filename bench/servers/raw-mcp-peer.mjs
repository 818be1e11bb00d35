// A hand-written JSON-RPC server for the client bench, not an MCP implementation: just enough of a
// sessionless 2025-11-25 Streamable HTTP endpoint for mcpwire's Client to connect and call `echo`
// (initialize, tools/list, tools/call echo; 202 to notifications; 405 to GET and DELETE), with no
// validation, so the client and its HTTP stack, not the server, set the figures.
// Prints `raw-peer at http://127.0.0.1:<port>/mcp` on stderr when listening (port from argv[2], default 0).
import { once } from 'node:events';
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
const echo = {
  name: 'echo',
  description: 'Echoes its message',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
};

function resultOf(message) {
  switch (message.method) {
    case 'initialize':
      return {
        protocolVersion: message.params?.protocolVersion ?? '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'raw-mcp-peer', version: '0.0.0' },
      };
    case 'tools/list':
      return { tools: [echo] };
    case 'tools/call':
      return { content: [{ type: 'text', text: message.params?.arguments?.message ?? '' }] };
    case 'ping':
      return {};
    default:
      return undefined;
  }
}

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    req.resume();
    res.writeHead(405, { allow: 'POST', 'content-length': 0 });
    res.end();
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (message.id === undefined) {
      res.writeHead(202, { 'content-length': 0 });
      res.end();
      return;
    }
    const result = resultOf(message);
    const answer =
      result === undefined
        ? {
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32601, message: `Method not found: ${message.method}` },
          }
        : { jsonrpc: '2.0', id: message.id, result };
    const body = JSON.stringify(answer);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1');
await once(server, 'listening');
process.stderr.write(`raw-peer at http://127.0.0.1:${server.address().port}/mcp\n`);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));
