// The ceiling, not an MCP server: a bare node:http JSON-RPC endpoint that answers `tools/call echo` the way the
// bench verifies it (JSON body, echoed text, resultType for 2026-07-28 requests), with no validation, no
// envelope or header checks, no sessions. It shows how much of the machine the load generator leaves to any
// server; the "0.04x of a raw node:http JSON-RPC server" figure refers to a server like this one.
// Prints `raw at http://127.0.0.1:<port>/mcp` on stderr when listening (port from argv[2], default 0 = any).
import { once } from 'node:events';
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const text = message.params?.arguments?.message ?? '';
    const stateless = message.params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined;
    const result = { content: [{ type: 'text', text }], ...(stateless ? { resultType: 'complete' } : {}) };
    const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(port, '127.0.0.1');
await once(server, 'listening');
process.stderr.write(`raw at http://127.0.0.1:${server.address().port}/mcp\n`);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));
