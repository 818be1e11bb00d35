// `mcpwire lint <transcript>` run as a script runs it, on transcripts recorded from real processes:
// misbehaving fixture servers driven by `mcpwire list --record`; a scripted client (the way `mcpwire
// tap` observes) where mcpwire's own client refuses to send the bad thing or cannot record it; HTTP
// exchanges through the shared recordingFetch; clean recordings of both eras; and files that are no
// transcript. Each test asserts the exact findings, so a rule that misfires fails as surely as one
// that stays silent.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Finding } from '../src/wire/lint/index.ts';
import { RULES } from '../src/wire/lint/rules.ts';
import { recordingFetch } from '../src/wire/client-wire.ts';
import { openFileSink, WireRecorder } from '../src/wire/recorder.ts';
import type { TranscriptEntry } from '../src/wire/transcript.ts';
import { answered, answeredWithoutId, recordScript } from './fixtures/lint/scripted-client.ts';
import { FIXTURES, OUR_EVERYTHING, runCli } from './support/cli-process.ts';
import { startOurHttpServer } from './support/http-servers.ts';

const TSX = import.meta.resolve('tsx');
const DIR = mkdtempSync(join(tmpdir(), 'mcpwire-lint-'));
after(() => rmSync(DIR, { recursive: true, force: true }));

/** The misbehaving fixture server started with `behaviour` (see fixtures/lint/misbehaving-server.ts). */
function fixture(behaviour: string): string[] {
  return [process.execPath, `--import=${TSX}`, join(FIXTURES, 'lint', 'misbehaving-server.ts'), behaviour];
}

/** `mcpwire lint <file> --json ...`: the exit code and the findings. */
async function lint(file: string, ...args: string[]): Promise<{ code: number | null; findings: Finding[] }> {
  const result = await runCli(['lint', file, '--json', ...args]);
  assert.equal(result.stderr, '', result.stderr);
  return { code: result.code, findings: JSON.parse(result.stdout) as Finding[] };
}

/** Records `mcpwire <args> --record <file> -- <server>`; the command's own outcome does not matter here. */
async function record(name: string, args: readonly string[], server: readonly string[]): Promise<string> {
  const file = join(DIR, `${name}.jsonl`);
  await runCli([...args, '--timeout', '30', '--record', file, '--', ...server], { timeoutMs: 120_000 });
  return file;
}

/** The entry on `line` (1-based) of a transcript file. */
function entryAt(file: string, line: number | undefined): TranscriptEntry {
  assert.ok(line !== undefined, 'a finding without a line');
  return JSON.parse(readFileSync(file, 'utf8').split('\n')[line - 1]!) as TranscriptEntry;
}

/** The entry on `line`, for matching: a message as its JSON, an invalid line, an HTTP request, other entries by type. */
function textAt(file: string, line: number | undefined): string {
  const entry = entryAt(file, line);
  switch (entry.type) {
    case 'message':
      return JSON.stringify(entry.message);
    case 'invalid':
      return `invalid from ${entry.from} (${entry.reason}): ${entry.text}`;
    case 'http-request':
      return `${entry.method} exchange ${entry.exchange}`;
    default:
      return entry.type;
  }
}

const initialize = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'scripted', version: '1' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const request = (id: number | string, method: string, params?: object) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'scripted', version: '1' },
};

describe('mcpwire lint', { concurrency: 2 }, () => {
  test('clean recordings of mcpwire list in both eras, over stdio and HTTP, and a dual-era probe, have no finding', async () => {
    await using http = await startOurHttpServer();
    const files = [
      await record('clean-stdio-handshake', ['list', '--era', 'handshake'], OUR_EVERYTHING),
      await record('clean-stdio-stateless', ['list', '--era', 'stateless'], OUR_EVERYTHING),
    ];
    // The default era probes with server/discover first; a handshake-era server's error to it is no fault.
    const probed = await record('clean-probe', ['list'], fixture('bare'));
    assert.match(
      readFileSync(probed, 'utf8'),
      /"method":"server\/discover"[\s\S]*"error"[\s\S]*"method":"initialize"/,
    );
    const probedLint = await runCli(['lint', probed]);
    assert.deepEqual([probedLint.code, probedLint.stdout], [0, `${probed}: no findings in 7 entries\n`]);
    for (const era of ['handshake', 'stateless']) {
      const file = join(DIR, `clean-http-${era}.jsonl`);
      const listed = await runCli(['list', http.url, '--era', era, '--record', file]);
      assert.equal(listed.code, 0, listed.stderr);
      files.push(file);
    }
    for (const file of files) {
      // Proof that there was something to lint: the handshake or the discover, and every list.
      assert.match(
        readFileSync(file, 'utf8'),
        /"method":"(?:initialize|server\/discover)"[\s\S]*"method":"prompts\/list"/,
      );
      const result = await runCli(['lint', file]);
      const entries = readFileSync(file, 'utf8').trimEnd().split('\n').length - 1;
      assert.deepEqual(
        [result.code, result.stdout, result.stderr],
        [0, `${file}: no findings in ${entries} entries\n`, ''],
      );
    }
  });

  test('handshake-era server faults, recorded by mcpwire list from the "sloppy" fixture', async () => {
    const file = await record('sloppy', ['list', 'tools', '--era', 'handshake'], fixture('sloppy'));
    const { code, findings } = await lint(file);
    assert.equal(code, 1);
    assert.deepEqual(
      findings.map((finding) => [finding.rule, finding.severity, finding.requirement]),
      [
        ['before-handshake', 'error', 'LIFE-1'],
        ['stdout-not-json', 'error', 'STDIO-3'],
        ['capability-not-declared', 'error', 'SAMP-1'],
        ['request-id-reused', 'error', 'BASE-4'],
        ['notification-with-id', 'error', 'BASE-7'],
        ['progress-unknown-token', 'error', 'PROG-4'],
        ['cancel-unknown-request', 'error', 'CANCEL-2'],
        ['invalid-message', 'error', 'BASE-2'],
        ['unknown-method', 'warning', 'LIFE-11'],
        ['response-unknown-id', 'error', 'BASE-5'],
        ['result-and-error', 'error', 'BASE-2'],
        ['schema-violation', 'error', 'LIFE-11'],
        ['response-duplicate', 'error', 'BASE-5'],
      ],
    );
    // Each finding points at the line that broke the rule.
    const at = (rule: string): string =>
      textAt(file, findings.find((finding) => finding.rule === rule)?.line);
    assert.match(
      at('before-handshake'),
      /^\{"jsonrpc":"2.0","method":"notifications\/tools\/list_changed"\}$/,
    );
    assert.match(at('stdout-not-json'), /^invalid from server \(Parse error: .*"Server lis/);
    assert.match(at('capability-not-declared'), /"method":"sampling\/createMessage"/);
    assert.match(at('request-id-reused'), /"id":"p1","method":"ping"/);
    assert.match(at('notification-with-id'), /"id":7,"method":"notifications\/tools\/list_changed"/);
    assert.match(at('progress-unknown-token'), /"progressToken":"nobody"/);
    assert.match(at('cancel-unknown-request'), /"requestId":"r9"/);
    assert.match(
      at('invalid-message'),
      /^invalid from server \(Invalid Request: "jsonrpc" must be "2.0", got "1.0"\)/,
    );
    assert.match(at('unknown-method'), /notifications\/custom\/hello/);
    assert.match(at('response-unknown-id'), /"id":999,"result"/);
    assert.match(
      at('result-and-error'),
      /^invalid from server \(Invalid Request: a message with both "result" and "error"\)/,
    );
    assert.match(at('schema-violation'), /"tools":\[\{"name":"echo"\}\]/);
    assert.match(at('response-duplicate'), /"description":"Echoes\."/);
    const schema = findings.find((finding) => finding.rule === 'schema-violation')!;
    assert.match(
      schema.message,
      /ListToolsResult of 2025-11-25: \/tools\/0 must have required property 'inputSchema'/,
    );
  });

  test('2026-07-28 server faults, recorded by mcpwire list --era stateless from the "stateless" fixture', async () => {
    const file = await record(
      'stateless',
      ['list', 'tools', '--era', 'stateless'],
      fixture('sloppyStateless'),
    );
    const { code, findings } = await lint(file);
    assert.equal(code, 1);
    assert.deepEqual(
      findings.map((finding) => [finding.rule, finding.requirement]),
      [
        ['capability-not-declared', 'S26-LOG-3'],
        ['schema-violation', 'S26-BASE-1'],
        ['result-type-missing', 'S26-BASE-3'],
      ],
    );
    assert.match(textAt(file, findings[0]!.line), /"method":"notifications\/message"/);
    assert.match(textAt(file, findings[1]!.line), /"id":"e1","method":"elicitation\/create"/);
    assert.match(textAt(file, findings[2]!.line), /^\{"jsonrpc":"2.0","id":2,"result":\{"tools"/);
  });

  test('client faults against our everything server, by a scripted client (mcpwire refuses to send them)', async () => {
    const file = join(DIR, 'client-handshake.jsonl');
    await recordScript(file, OUR_EVERYTHING, [
      { send: request(1, 'tools/list'), until: answered(1) },
      { send: initialize(2), until: answered(2) },
      { send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } } },
      { send: initialized },
      { send: 'hello', until: answeredWithoutId },
      { send: request(2, 'tools/list'), until: answered(2, 2) },
    ]);
    const { code, findings } = await lint(file);
    assert.equal(code, 1);
    assert.deepEqual(
      findings.map((finding) => [finding.rule, finding.requirement, textAt(file, finding.line)]),
      [
        ['before-handshake', 'LIFE-1', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'],
        [
          'cancel-initialize',
          'CANCEL-3',
          '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}',
        ],
        ['stdin-not-json', 'STDIO-4', 'invalid from client (not JSON): hello'],
        ['request-id-reused', 'BASE-4', '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'],
      ],
    );
  });

  test('a client calling what a server without capabilities did not declare ("bare" fixture, scripted client)', async () => {
    const file = join(DIR, 'bare.jsonl');
    await recordScript(file, fixture('bare'), [
      { send: initialize(1), until: answered(1) },
      { send: initialized },
      { send: request(2, 'tools/call', { name: 'echo' }), until: answered(2) },
      { send: request(3, 'logging/setLevel', { level: 'info' }), until: answered(3) },
      {
        send: request(4, 'completion/complete', {
          ref: { type: 'ref/prompt', name: 'greeting' },
          argument: { name: 'name', value: 'A' },
        }),
        until: answered(4),
      },
      { send: request(5, 'resources/subscribe', { uri: 'test://watched' }), until: answered(5) },
    ]);
    const { code, findings } = await lint(file);
    assert.equal(code, 1);
    assert.deepEqual(
      findings.map((finding) => [
        finding.rule,
        finding.requirement,
        JSON.parse(textAt(file, finding.line)).method,
      ]),
      [
        ['capability-not-declared', 'TOOL-1', 'tools/call'],
        ['capability-not-declared', 'LOG-1', 'logging/setLevel'],
        ['capability-not-declared', 'COMP-1', 'completion/complete'],
        ['capability-not-declared', 'RES-5', 'resources/subscribe'],
      ],
    );
    assert.match(findings[3]!.message, /did not declare the "resources\.subscribe" capability in initialize/);
  });

  test('blank lines, batches, progress and a late answer: what only a raw observer of stdio records ("progress" fixture)', async () => {
    const file = join(DIR, 'progress.jsonl');
    await recordScript(file, fixture('progress'), [
      { send: initialize(1), until: answered(1) },
      { send: initialized },
      { send: request(2, 'ping'), until: answered(2) },
      {
        send: request(3, 'tools/call', { name: 'echo', _meta: { progressToken: 't' } }),
        until: (received) =>
          received.some((message) => (message.params as { progress?: number } | undefined)?.progress === 2),
      },
      { send: request(4, 'tools/call', { name: 'echo' }) },
      {
        send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4 } },
        until: answered(4),
      },
    ]);
    const { code, findings } = await lint(file);
    assert.equal(code, 1);
    assert.deepEqual(
      findings.map((finding) => [finding.rule, finding.severity, finding.requirement]),
      [
        ['stdout-not-json', 'error', 'STDIO-3'],
        ['batch-not-allowed', 'error', 'BASE-8'],
        ['progress-not-increasing', 'error', 'PROG-3'],
        ['progress-after-response', 'error', 'PROG-4'],
        ['response-after-cancel', 'warning', 'CANCEL-5'],
      ],
    );
    assert.equal(textAt(file, findings[0]!.line), 'invalid from server (blank line): ');
    assert.equal((entryAt(file, findings[1]!.line) as { batch?: number }).batch, 0);
    assert.match(findings[2]!.message, /progress 1 for token "t" after 1/);
    assert.match(textAt(file, findings[3]!.line), /"progress":2/);
    assert.match(textAt(file, findings[4]!.line), /"id":4,"result"/);

    // The human form: file:line rule severity message (requirement), then a summary line.
    const human = await runCli(['lint', file]);
    const lines = human.stdout.trimEnd().split('\n');
    assert.equal(human.code, 1);
    assert.equal(lines.length, 6);
    assert.match(
      lines[0]!,
      new RegExp(
        `^${escape(file)}:${findings[0]!.line} stdout-not-json error the server wrote a line to stdout that is no JSON-RPC message \\(blank line\\).* \\(STDIO-3\\)$`,
      ),
    );
    assert.equal(
      lines[5],
      `${file}: 4 errors, 1 warning in ${readFileSync(file, 'utf8').trimEnd().split('\n').length - 1} entries`,
    );
    // A warning alone exits 0; --rule keeps only the named rules, --ignore drops them.
    const warningOnly = await lint(file, '--rule', 'response-after-cancel');
    assert.deepEqual(
      [warningOnly.code, warningOnly.findings.map((finding) => finding.rule)],
      [0, ['response-after-cancel']],
    );
    const ignored = await lint(file, '--ignore', 'stdout-not-json', '--ignore', 'batch-not-allowed');
    assert.deepEqual(
      [ignored.code, ignored.findings.map((finding) => finding.rule)],
      [1, ['progress-not-increasing', 'progress-after-response', 'response-after-cancel']],
    );
  });

  test('2026-07-28 client faults: a missing envelope key and an input_required retry with its id (our everything server), an id reused while pending ("stateless" fixture)', async () => {
    const file = join(DIR, 'client-stateless.jsonl');
    const file2 = join(DIR, 'client-stateless-pending.jsonl');
    const prompt = { name: 'test_input_required_result_prompt', _meta: META };
    await recordScript(file, OUR_EVERYTHING, [
      { send: request(1, 'server/discover', { _meta: META }), until: answered(1) },
      {
        send: request(2, 'tools/list', {
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
        }),
        until: answered(2),
      },
      { send: request(3, 'prompts/get', prompt), until: answered(3) },
      { send: request(3, 'prompts/get', prompt), until: answered(3, 2) },
    ]);
    // Our server would be right to refuse the reused id; the check preloaded into every test process
    // would then report its answers as unmatched, so the pending reuse goes to a fixture.
    await recordScript(file2, fixture('stateless'), [
      { send: request(1, 'server/discover', { _meta: META }), until: answered(1) },
      { send: request(5, 'tools/list', { _meta: META }) },
      { send: request(5, 'prompts/list', { _meta: META }), until: answered(5, 2) },
    ]);
    assert.match(readFileSync(file, 'utf8'), /"resultType":"input_required"/);
    const { code, findings } = await lint(file);
    assert.equal(code, 1);
    assert.deepEqual(
      findings.map((finding) => [
        finding.rule,
        finding.requirement,
        JSON.parse(textAt(file, finding.line)).method,
        JSON.parse(textAt(file, finding.line)).id,
      ]),
      [
        ['envelope-key-missing', 'S26-META-2', 'tools/list', 2],
        ['request-id-reused', 'S26-MRTR-8', 'prompts/get', 3],
      ],
    );
    assert.match(
      findings[0]!.message,
      /without io\.modelcontextprotocol\/clientCapabilities in params\._meta/,
    );
    const pending = await lint(file2);
    assert.equal(pending.code, 1);
    assert.deepEqual(
      pending.findings.map((finding) => [finding.rule, finding.requirement, textAt(file2, finding.line)]),
      [['request-id-reused', 'S26-BASE-2', JSON.stringify(request(5, 'prompts/list', { _meta: META }))]],
    );
    // Both requests were answered, neither response is "unknown" or a duplicate.
    assert.equal(
      readFileSync(file2, 'utf8').match(/"from":"server","message":\{"jsonrpc":"2.0","id":5,"result"/g)
        ?.length,
      2,
    );
  });

  test('HTTP headers: after initialize a request without MCP-Protocol-Version or with another revision; in 2026-07-28 a header that differs from _meta, no Mcp-Method, no Mcp-Name', async () => {
    await using http = await startOurHttpServer();
    // mcpwire's client always sends the right headers, so a scripted client posts through the
    // same recordingFetch that --record uses, against our real server.
    const post = async (
      fetchRecorded: ReturnType<typeof recordingFetch>,
      body: object,
      headers: Record<string, string>,
    ): Promise<Response> => {
      const response = await fetchRecorded(
        new Request(http.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...headers,
          },
          body: JSON.stringify(body),
        }),
      );
      await response.text();
      return response;
    };
    const recordHttp = async (
      name: string,
      script: (fetchRecorded: ReturnType<typeof recordingFetch>) => Promise<void>,
    ) => {
      const file = join(DIR, `${name}.jsonl`);
      const recorder = new WireRecorder(
        { recorder: 'lint test (scripted HTTP client)', transport: 'http', target: http.url },
        { sinks: [await openFileSink(file)] },
      );
      await script(recordingFetch(recorder));
      await recorder.close();
      return file;
    };
    const handshake = await recordHttp('http-handshake', async (fetchRecorded) => {
      const opened = await post(fetchRecorded, initialize(1), {});
      const session = opened.headers.get('mcp-session-id') ?? '';
      assert.notEqual(session, '');
      await post(fetchRecorded, initialized, {
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
      });
      await post(fetchRecorded, request(2, 'tools/list'), { 'mcp-session-id': session });
      await post(fetchRecorded, request(3, 'tools/list'), {
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-06-18',
      });
      await post(fetchRecorded, request(4, 'tools/list'), {
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
      });
    });
    const handshakeFindings = await lint(handshake);
    assert.deepEqual(
      handshakeFindings.findings.map((finding) => [
        finding.rule,
        finding.requirement,
        textAt(handshake, finding.line),
      ]),
      [
        ['protocol-version-header', 'HTTP-33', 'POST exchange 3'],
        ['protocol-version-header', 'LIFE-10', 'POST exchange 4'],
      ],
    );
    const stateless = await recordHttp('http-stateless', async (fetchRecorded) => {
      const headers = (method: string, version = '2026-07-28') => ({
        'mcp-protocol-version': version,
        'mcp-method': method,
      });
      await post(fetchRecorded, request(1, 'server/discover', { _meta: META }), headers('server/discover'));
      await post(
        fetchRecorded,
        request(2, 'tools/list', { _meta: META }),
        headers('tools/list', '2025-11-25'),
      );
      await post(fetchRecorded, request(3, 'tools/list', { _meta: META }), {
        'mcp-protocol-version': '2026-07-28',
      });
      await post(
        fetchRecorded,
        request(4, 'tools/call', { name: 'echo', arguments: { message: 'hi' }, _meta: META }),
        headers('tools/call'),
      );
    });
    const statelessFindings = await lint(stateless);
    assert.deepEqual(
      statelessFindings.findings.map((finding) => [
        finding.rule,
        finding.requirement,
        textAt(stateless, finding.line),
      ]),
      [
        ['protocol-version-header', 'S26-HTTP-11', 'POST exchange 2'],
        ['method-header', 'S26-HTTP-12', 'POST exchange 3'],
        ['method-header', 'S26-HTTP-12', 'POST exchange 4'],
      ],
    );
    assert.match(
      statelessFindings.findings[0]!.message,
      /MCP-Protocol-Version "2025-11-25" but its _meta names "2026-07-28"/,
    );
    assert.match(
      statelessFindings.findings[2]!.message,
      /no Mcp-Name header; send Mcp-Name with params\.name \("echo"\)/,
    );
  });

  test('a file that is no transcript exits 2 naming the line; so does an unknown rule or a missing file', async () => {
    const notJson = join(DIR, 'not-a-transcript.txt');
    writeFileSync(notJson, 'hello\n');
    const broken = join(DIR, 'broken.jsonl');
    writeFileSync(
      broken,
      `${JSON.stringify({ type: 'header', format: 'mcpwire-transcript', version: 1, recorder: 'x', transport: 'stdio', target: 'x', startedAt: '2026-01-01T00:00:00Z' })}\n{"type":"note","t":1,"text":"ok"}\n{"type":"message",\n`,
    );
    const cases: Array<[string[], RegExp]> = [
      [[notJson], new RegExp(`^mcpwire: ${escape(notJson)}:1: not JSON`)],
      [[broken], new RegExp(`^mcpwire: ${escape(broken)}:3: not JSON`)],
      [
        [join(DIR, 'absent.jsonl')],
        /^mcpwire: cannot read .*absent\.jsonl: ENOENT.*; pass a transcript written by --record or mcpwire tap\n$/,
      ],
      [
        [broken, '--rule', 'no-such-rule'],
        /^mcpwire: --rule "no-such-rule": no such rule; the rules are stdout-not-json, /,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(['lint', ...args]);
      assert.deepEqual([result.code, result.stdout], [2, ''], args.join(' '));
      assert.match(result.stderr, message);
    }
  });

  test('--help lists every rule with its severity', async () => {
    const help = await runCli(['lint', '--help']);
    assert.equal(help.code, 0);
    for (const rule of RULES)
      assert.match(help.stdout, new RegExp(`^  ${rule.id} +${rule.severity} `, 'm'), rule.id);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
