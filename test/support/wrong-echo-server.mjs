// A stdio server for test/load-hand-written.test.ts: answers `tools/call echo` as
// bench/servers/raw-mcp.mjs does but for every 5th of its first 100 calls (the wrong text) and every 7th (an error), with
// a notification before every 3rd answer and the answers of each read written in two pieces, so the
// bench's hand-written driver meets every shape of line it must judge and lines split across reads.
let buffer = '';
let calls = 0;
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let out = '';
  let end;
  while ((end = buffer.indexOf('\n')) !== -1) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.id === undefined) continue;
    if (message.method === 'initialize') {
      const serverInfo = { name: 'wrong-echo', version: '0' };
      const result = { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo };
      out += JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\n';
      continue;
    }
    calls++;
    const text = calls <= 100 && calls % 5 === 0 ? 'wrong' : message.params.arguments.message;
    const answer =
      calls <= 100 && calls % 7 === 0
        ? { jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'no' } }
        : { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text }] } };
    if (calls % 3 === 0) out += '{"jsonrpc":"2.0","method":"notifications/message","params":{}}\n';
    out += JSON.stringify(answer) + '\n';
  }
  // The first piece ends inside the last line.
  const cut = Math.max(0, out.length - 10);
  process.stdout.write(out.slice(0, cut));
  setImmediate(() => process.stdout.write(out.slice(cut)));
});
