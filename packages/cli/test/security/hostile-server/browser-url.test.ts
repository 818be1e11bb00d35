// A hostile MCP server names the authorization endpoint the CLI opens in a browser. On Windows the
// opener was `cmd /c start "" <url>`, so `|calc`, `^`, `%PATH%` or `"&calc&"` in that URL ran commands
// (the class of mcp-remote's CVE-2025-6514). `browserCommand` is checked for all three platforms by
// rebuilding the exact command line Node hands to Windows (libuv's argument quoting, then cmd.exe's
// parsing when cmd is the program); the real OAuth flow of `mcpwire list` against a hostile server
// then shows what the CLI hands to the opener (a recording `xdg-open` first on PATH, on a terminal).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, test } from 'node:test';
import { browserCommand } from '../../../src/oauth/browser.ts';
import { MCPWIRE } from '../../support/cli-process.ts';
import { PtyProcess } from '../../support/pty-process.ts';

/** URLs a hostile server can get into the authorization URL (some are not URLs a browser may open). */
const HOSTILE = [
  'https://a/?x=1|calc',
  'https://a/x|calc',
  'https://a/x^|calc',
  'https://a/%PATH%',
  'https://a/x%PATH%y',
  'https://a/"&calc&"',
  'https://a/x&calc&y',
  'https://a/x>C:\\Windows\\x',
  'https://a/x<in',
  'https://a/x\ncalc',
  'https://a/x\r\ncalc',
  'https://a/x`calc`$(calc)',
  'https://a/x!PATH!',
  'https://a/(x)',
  'https://a/ x',
  'https://a/x?y=1#|calc',
  'http://127.0.0.1:1/x|calc^%PATH%/authorize?response_type=code&state=a|b',
];
const REFUSED = [
  'file:///C:/Windows/System32/calc.exe',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'ms-settings:',
  'ms-msdt:/id PCWDiagnostic',
  'search-ms:query=calc',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox',
  '\\\\attacker\\share\\calc.exe',
  'C:\\Windows\\System32\\calc.exe',
  'not a url',
];

/** Characters RFC 3986 allows in a URI, `%` only as the start of an escape. */
const URI_SAFE = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/**
 * One argument as Node (libuv's `quote_cmd_arg`) writes it into a Windows command line for a
 * spawn without a shell: untouched unless empty or holding a space, tab or quote; then in quotes,
 * with backslashes before a quote (and before the closing quote) doubled and the quote escaped.
 */
function quoteWindowsArg(arg: string): string {
  if (arg === '') return '""';
  if (!/[ \t"]/.test(arg)) return arg;
  if (!/["\\]/.test(arg)) return `"${arg}"`;
  let quoted = '"';
  let backslashes = 0;
  for (const char of arg) {
    if (char === '\\') backslashes++;
    else if (char === '"') {
      quoted += '\\'.repeat(backslashes * 2 + 1) + '"';
      backslashes = 0;
    } else {
      quoted += '\\'.repeat(backslashes) + char;
      backslashes = 0;
    }
  }
  return `${quoted}${'\\'.repeat(backslashes * 2)}"`;
}

/** The command line a Windows process receives from `spawn(command, args)` (no shell). */
function windowsCommandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(quoteWindowsArg).join(' ');
}

/**
 * What cmd.exe would do with `line` besides running its first command: the operators outside
 * quotes (`&`, `|`, `<`, `>`, a line break), and `%NAME%` expansions (done inside quotes too).
 * `^` escapes the next character outside quotes. Empty means it runs one command, unaltered.
 */
function cmdSurprises(line: string): string[] {
  const found: string[] = [];
  for (const match of line.matchAll(/%[^%\s]+%/g)) found.push(`expands ${match[0]}`);
  let isQuoted = false;
  for (let at = 0; at < line.length; at++) {
    const char = line[at]!;
    if (char === '\r' || char === '\n') found.push('a line break ends the command');
    else if (char === '"') isQuoted = !isQuoted;
    else if (isQuoted) continue;
    else if (char === '^') at++;
    else if ('&|<>'.includes(char)) found.push(`runs what follows ${JSON.stringify(line.slice(at))}`);
  }
  return found;
}

const SHELLS = /^(?:.*[\\/])?(?:cmd|powershell|pwsh|bash|sh)(?:\.exe)?$/i;

/** Checks that `url` reaches the browser on `platform` as one argument, with no shell to run any of it. */
function assertSafeOpen(url: string, platform: NodeJS.Platform): void {
  const opener = browserCommand(url, platform);
  assert.ok(opener !== undefined, `${JSON.stringify(url)} is an http(s) URL and is opened on ${platform}`);
  const { command, args } = opener;
  const handed = args.at(-1)!;
  if (platform === 'win32') assertNoShellRuns(command, args);
  else assert.ok(!SHELLS.test(command), `${platform}: ${command} is no shell`);
  assert.ok(URI_SAFE.test(handed), `${platform}: ${JSON.stringify(handed)} holds only RFC 3986 characters`);
  assert.equal(new URL(handed).origin, new URL(url).origin, 'the same origin');
  assert.ok(!handed.startsWith('-'), 'no option');
}

/** The Windows command line of `spawn(command, args)` runs one program on one URL, nothing else. */
function assertNoShellRuns(command: string, args: readonly string[]): void {
  const line = windowsCommandLine(command, args);
  if (SHELLS.test(command)) {
    assert.match(command, /^cmd(?:\.exe)?$/i, 'cmd is the only shell that may be used');
    const afterC = line.slice(line.indexOf(' /c ') + 4);
    assert.deepEqual(cmdSurprises(afterC), [], `cmd.exe would run: ${line}`);
  } else {
    assert.doesNotMatch(command, /\.(?:bat|cmd)$/i, 'a batch file runs in cmd.exe');
    // rundll32 and explorer take the rest of the command line as it is: the URL must be one token.
    assert.equal(line, [command, ...args].join(' '), `no argument needed quoting: ${line}`);
    assert.doesNotMatch(args.at(-1)!, /[\s"]/);
  }
}

describe('the browser opener and a hostile authorization URL', () => {
  for (const platform of ['win32', 'darwin', 'linux'] as const)
    test(`${platform}: every hostile http(s) URL is one argument, with nothing after it run`, () => {
      for (const url of HOSTILE) assertSafeOpen(url, platform);
    });

  test('a URL that is not http(s) is never opened, on any platform', () => {
    for (const platform of ['win32', 'darwin', 'linux'] as const)
      for (const url of REFUSED)
        assert.equal(browserCommand(url, platform), undefined, `${platform} refuses ${JSON.stringify(url)}`);
  });

  test('a well-formed URL is opened as it is', () => {
    const url = 'https://auth.example/authorize?response_type=code&client_id=a%20b&state=x~y';
    for (const platform of ['win32', 'darwin', 'linux'] as const)
      assert.equal(browserCommand(url, platform)?.args.at(-1), url, platform);
  });

  test('mcpwire list against a server whose authorization endpoint is hostile: the opener never gets it raw', async () => {
    const hostilePath = '/a|calc^x%PATH%&calc&"b"/authorize';
    const server = createHttpServer((request, response) => hostileAuthServer(request, response, hostilePath));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const recorder = createTcpServer();
    recorder.listen(0, '127.0.0.1');
    await once(recorder, 'listening');
    const home = await mkdtemp(join(tmpdir(), 'mcpwire-browser-url-'));
    try {
      const opened = new Promise<string[]>((resolve) =>
        recorder.once('connection', (socket) => {
          let text = '';
          socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          socket.once('end', () => resolve(JSON.parse(text) as string[]));
        }),
      );
      // The opener the CLI finds on PATH: it reports its arguments to the test and exits.
      const bin = join(home, 'bin');
      await writeFile(join(home, 'package.json'), '{"type":"commonjs"}');
      await mkdir(bin);
      const opener = join(bin, 'xdg-open');
      await writeFile(
        opener,
        `#!${process.execPath}\n` +
          `const s = require('node:net').connect(${(recorder.address() as AddressInfo).port}, '127.0.0.1', ` +
          `() => s.end(JSON.stringify(process.argv.slice(2))));\n`,
      );
      await chmod(opener, 0o755);
      await using cli = new PtyProcess(
        [...MCPWIRE, 'list', `${origin}/mcp`, 'tools', '--token-store', join(home, 'store.json')],
        {
          env: {
            PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
            DISPLAY: ':0',
            WAYLAND_DISPLAY: undefined,
            CI: undefined,
            XDG_DATA_HOME: join(home, 'data'),
          },
        },
      );
      const exited = cli.exited.then(({ exitCode }) =>
        assert.fail(`the CLI exited (${exitCode}) before opening a browser:\n${cli.text}`),
      );
      const args = await Promise.race([opened, exited]);
      const hostile = new URL(`${origin}${hostilePath}`).href;
      assert.equal(args.length, 1, `one argument: ${JSON.stringify(args)}`);
      const handed = args[0]!;
      assert.ok(!handed.startsWith(hostile), `the hostile URL reached the opener raw: ${handed}`);
      assert.ok(URI_SAFE.test(handed), `only RFC 3986 characters: ${handed}`);
      const url = new URL(handed);
      assert.equal(url.origin, origin);
      assert.equal(decodeURIComponent(url.pathname), hostilePath, 'the same path to the server');
      assert.equal(url.searchParams.get('response_type'), 'code');
    } finally {
      server.closeAllConnections();
      server.close();
      recorder.close();
      await rm(home, { recursive: true, force: true });
    }
  });
});

/** A protected MCP server and its own authorization server, whose authorization endpoint is `hostilePath`. */
function hostileAuthServer(request: IncomingMessage, response: ServerResponse, hostilePath: string): void {
  const origin = `http://${request.headers.host ?? ''}`;
  const json = (status: number, body: object): void => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  request.resume();
  const path = (request.url ?? '/').split('?')[0];
  if (path === '/mcp')
    response
      .writeHead(401, {
        'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
      })
      .end();
  else if (path === '/.well-known/oauth-protected-resource/mcp')
    json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
  else if (path === '/.well-known/oauth-authorization-server')
    json(200, {
      issuer: origin,
      authorization_endpoint: `${origin}${hostilePath}`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
  else if (path === '/register')
    json(201, { client_id: 'hostile-client', token_endpoint_auth_method: 'none' });
  else json(404, { error: 'not_found' });
}
