// The hand-written baseline for one-shot CLI runs: spawn the stdio server given as arguments, send
// initialize, notifications/initialized and one request (tools/list, or tools/call echo with `--call`),
// print the result, close stdin. No SDK, no argument parsing: the floor any MCP CLI can reach.
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const isCall = args[0] === '--call';
const [command, ...rest] = isCall ? args.slice(1) : args;
const child = spawn(command, rest, { stdio: ['pipe', 'pipe', 'inherit'] });
const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
let buffer = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  buffer += chunk;
  for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.id === 1) {
      send({ method: 'notifications/initialized' });
      send(
        isCall
          ? { id: 2, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } }
          : { id: 2, method: 'tools/list' },
      );
    } else if (message.id === 2) {
      process.stdout.write(`${JSON.stringify(message.result)}\n`);
      child.stdin.end();
    }
  }
});
send({
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
