// A hand-written `bridge --http <port> -- <command...>` for benchmarks only (bench/bridge-instructions.ts):
// the floor a relay of handshake-era sessions can cost. One child per session; a POST body goes to the
// child's stdin as it is, the child's line for that id comes back as the JSON body, byte for byte. No
// Host/Origin check, no auth, no SSE, no validation beyond JSON.parse: never serve anything with it.
//   node bench/servers/raw-bridge.mjs <port> -- <command> [args...]
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const [port, dashes, command, ...args] = process.argv.slice(2);
if (dashes !== '--' || command === undefined) throw new Error('usage: raw-bridge.mjs <port> -- <command...>');

/** @type {Map<string, { child: import('node:child_process').ChildProcess, waiting: Map<unknown, import('node:http').ServerResponse> }>} */
const sessions = new Map();

function startSession() {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      const { id } = JSON.parse(line);
      const res = waiting.get(id);
      if (res === undefined) continue;
      waiting.delete(id);
      res.end(line);
    }
  });
  return { child, waiting };
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    const message = JSON.parse(text);
    let sessionId = req.headers['mcp-session-id'];
    let session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (session === undefined) {
      if (message.method !== 'initialize') return void res.writeHead(404).end();
      sessionId = randomUUID();
      session = startSession();
      sessions.set(sessionId, session);
    }
    session.child.stdin.write(text + '\n');
    if (message.id === undefined) return void res.writeHead(202).end();
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': sessionId });
    session.waiting.set(message.id, res);
  });
});
server.listen(Number(port), '127.0.0.1', () => {
  process.stderr.write(`raw bridge at http://127.0.0.1:${server.address().port}/mcp\n`);
});
process.once('SIGTERM', () => {
  for (const { child } of sessions.values()) child.stdin.end();
  server.close();
  server.closeAllConnections();
});
