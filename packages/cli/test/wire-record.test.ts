// --trace and --record on the client commands, run as a person runs them: the transcript holds the
// header, spawn, every message both ways and the exit (stdio), or each HTTP exchange with status and
// headers (Streamable HTTP); secrets (an Authorization header, credential-named arguments, a
// --redact path) appear in neither the transcript nor the trace, while the command's own output and
// what the server received are unchanged.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OUR_EVERYTHING, runCli } from './support/cli-process.ts';
import { startOurHttpServer, type HttpServer } from './support/http-servers.ts';
import { parseTranscript, type MessageEntry, type Transcript } from '../src/wire/transcript.ts';

const SECRET = 'hunter2-do-not-log';

async function readTranscript(file: string): Promise<{ text: string; transcript: Transcript }> {
  const text = await readFile(file, 'utf8');
  return { text, transcript: parseTranscript(text, file) };
}

function messages(transcript: Transcript, from: 'client' | 'server'): MessageEntry[] {
  return transcript.entries.filter(
    (entry): entry is MessageEntry => entry.type === 'message' && entry.from === from,
  );
}

function methods(entries: readonly MessageEntry[]): string[] {
  return entries.flatMap((entry) => ('method' in entry.message ? [entry.message.method] : []));
}

describe('--trace and --record on the client commands', { concurrency: 2 }, () => {
  let dir: string;
  let http: HttpServer;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpwire-record-'));
    http = await startOurHttpServer();
  });

  after(async () => {
    await http[Symbol.asyncDispose]();
    await rm(dir, { recursive: true, force: true });
  });

  test('stdio, handshake era: spawn, the handshake, the call, the exit; secrets redacted in file and trace', async () => {
    const file = join(dir, 'call-handshake.jsonl');
    const run = await runCli([
      'call',
      'echo',
      `message=${SECRET}`,
      '--era',
      'handshake',
      '--record',
      file,
      '--trace',
      '--redact',
      '$.params.arguments.message',
      '--redact',
      '$.result.content[*].text',
      '--',
      ...OUR_EVERYTHING,
    ]);
    assert.equal(run.code, 0, run.stderr);
    // The command's own output and what the server got are not redacted: only the record is.
    assert.equal(run.stdout, `${SECRET}\n`);
    const { text, transcript } = await readTranscript(file);
    assert.equal(transcript.header.recorder, 'mcpwire tools/call echo');
    assert.equal(transcript.header.transport, 'stdio');
    const types = transcript.entries.map((entry) => entry.type);
    assert.equal(types[0], 'spawn');
    assert.equal(types.at(-1), 'exit');
    assert.deepEqual(methods(messages(transcript, 'client')), [
      'initialize',
      'notifications/initialized',
      'tools/list',
      'tools/call',
    ]);
    const call = messages(transcript, 'client').find(
      (entry) => 'method' in entry.message && entry.message.method === 'tools/call',
    );
    assert.deepEqual((call?.message as { params?: unknown }).params, {
      name: 'echo',
      arguments: { message: '[redacted]' },
    });
    const answers = messages(transcript, 'server');
    assert.equal(
      answers.length,
      3,
      'the initialize, tools/list (for the argument types) and tools/call results',
    );
    // The echo carries the secret back: the second path redacts the result's text too.
    assert.ok(!text.includes(SECRET), text);
    assert.ok(!run.stderr.includes(SECRET), run.stderr);
    assert.deepEqual((answers[2]!.message as { result?: { content?: unknown } }).result?.content, [
      { type: 'text', text: '[redacted]' },
    ]);
    assert.match(run.stderr, /host → server {2}#\d+ tools\/call echo/);
    assert.match(run.stderr, /server → host {2}#\d+ \(answers tools\/call echo, \d+ ms\)/);
    const times = transcript.entries.map((entry) => entry.t);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
      'entries in time order',
    );
  });

  test('stdio, 2026-07-28: credential-named arguments are redacted by default', async () => {
    const file = join(dir, 'call-stateless.jsonl');
    const run = await runCli([
      'call',
      'echo',
      'message=hello',
      `apiKey=${SECRET}`,
      '--era',
      'stateless',
      '--record',
      file,
      '--trace',
      '--',
      ...OUR_EVERYTHING,
    ]);
    const { text, transcript } = await readTranscript(file);
    assert.ok(!text.includes(SECRET), text);
    assert.ok(!run.stderr.includes(SECRET), run.stderr);
    assert.deepEqual(methods(messages(transcript, 'client')), [
      'server/discover',
      'tools/list',
      'tools/call',
    ]);
    const call = messages(transcript, 'client')[2]!.message as unknown as {
      params: { arguments: Record<string, unknown> };
    };
    assert.equal(call.params.arguments.apiKey, '[redacted]');
    assert.equal(call.params.arguments.message, 'hello');
  });

  test('Streamable HTTP: each exchange with its status and headers; the Authorization header redacted', async () => {
    const file = join(dir, 'list-http.jsonl');
    const run = await runCli([
      'list',
      http.url,
      'tools',
      '--record',
      file,
      '--trace',
      '--header',
      `Authorization: Bearer ${SECRET}`,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const { text, transcript } = await readTranscript(file);
    assert.ok(!text.includes(SECRET), 'the token is not in the transcript');
    assert.ok(!run.stderr.includes(SECRET), 'the token is not in the trace');
    assert.equal(transcript.header.transport, 'http');
    assert.equal(transcript.header.target, http.url);
    const requests = transcript.entries.filter((entry) => entry.type === 'http-request');
    const responses = transcript.entries.filter((entry) => entry.type === 'http-response');
    assert.ok(requests.length >= 2, 'discover (or initialize) and tools/list at least');
    for (const request of requests) {
      assert.equal(request.headers.authorization, 'Bearer [redacted]');
      assert.equal(request.url, http.url);
    }
    assert.deepEqual(
      responses.map((response) => response.status).filter((status) => status >= 400),
      [],
      'no failed exchange',
    );
    for (const message of transcript.entries.filter((entry) => entry.type === 'message'))
      assert.equal(typeof message.exchange, 'number', 'each message names its exchange');
    assert.ok(methods(messages(transcript, 'client')).includes('tools/list'));
    assert.match(run.stderr, /HTTP POST \/mcp .*⇒ 200/);
  });

  test('a --redact path that is no JSONPath is a usage error (exit 2) saying what is accepted', async () => {
    const run = await runCli(['list', '--redact', 'params.x', '--', ...OUR_EVERYTHING]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--redact "params\.x": a path starts with \$; use a JSONPath such as/);
  });

  test('--record to a file that cannot be written fails before the server starts (exit 2)', async () => {
    const run = await runCli(['list', '--record', join(dir, 'missing', 'x.jsonl'), '--', ...OUR_EVERYTHING]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /cannot write the transcript to .*missing.*x\.jsonl/);
  });
});
