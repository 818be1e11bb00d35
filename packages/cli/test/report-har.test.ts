// `mcpwire report --har` on transcripts recorded for real over Streamable HTTP (`mcpwire call|list
// --record <url>` against `mcpwire serve everything --http`), in both eras: the file validates against
// a JSON Schema written here from the HAR 1.2 spec (no maintained offline HAR validator exists on npm:
// har-validator is deprecated), and each entry matches its exchange in the transcript. Over stdio: exit 2.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { runCli } from './support/cli-process.ts';
import { startOurHttpServer, type HttpServer } from './support/http-servers.ts';
import {
  parseTranscript,
  type EventEntry,
  type MessageEntry,
  type Transcript,
} from '../src/wire/transcript.ts';
import type { Har, HarEntry } from '../src/commands/report/har-format.ts';

const addFormats = addFormatsModule.default;

/** HAR 1.2 objects allow `comment` and custom fields named with a leading underscore, nothing else. */
function object(required: Record<string, object>, optional: Record<string, object> = {}): object {
  return {
    type: 'object',
    required: Object.keys(required),
    properties: { ...required, ...optional, comment: { type: 'string' } },
    patternProperties: { '^_': {} },
    additionalProperties: false,
  };
}

const STRING = { type: 'string' };
const INTEGER = { type: 'integer' };
const SIZE = { type: 'integer', minimum: -1 };
const OPTIONAL_TIME = { type: 'number', minimum: -1 };
const TIME = { type: 'number', minimum: 0 };
const NAME_VALUES = { type: 'array', items: object({ name: STRING, value: STRING }) };
const COOKIES = {
  type: 'array',
  items: object(
    { name: STRING, value: STRING },
    {
      path: STRING,
      domain: STRING,
      expires: STRING,
      httpOnly: { type: 'boolean' },
      secure: { type: 'boolean' },
    },
  ),
};

/** The HAR 1.2 spec ("HTTP Archive (HAR) format", W3C Web Performance draft), section by section. */
const HAR_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  ...object({
    log: object(
      {
        version: { const: '1.2' },
        creator: object({ name: STRING, version: STRING }),
        entries: {
          type: 'array',
          items: object(
            {
              startedDateTime: { type: 'string', format: 'date-time' },
              time: TIME,
              request: object(
                {
                  method: STRING,
                  url: { type: 'string', format: 'uri' },
                  httpVersion: STRING,
                  cookies: COOKIES,
                  headers: NAME_VALUES,
                  queryString: NAME_VALUES,
                  headersSize: SIZE,
                  bodySize: SIZE,
                },
                {
                  // "text and params fields are mutually exclusive"
                  postData: {
                    ...object({ mimeType: STRING }, { text: STRING, params: { type: 'array' } }),
                    not: { properties: { text: true, params: true }, required: ['text', 'params'] },
                  },
                },
              ),
              response: object({
                status: INTEGER,
                statusText: STRING,
                httpVersion: STRING,
                cookies: COOKIES,
                headers: NAME_VALUES,
                content: object(
                  { size: INTEGER, mimeType: STRING },
                  { compression: INTEGER, text: STRING, encoding: STRING },
                ),
                redirectURL: STRING,
                headersSize: SIZE,
                bodySize: SIZE,
              }),
              cache: object(
                {},
                { beforeRequest: { type: ['object', 'null'] }, afterRequest: { type: ['object', 'null'] } },
              ),
              timings: object(
                { send: TIME, wait: TIME, receive: TIME },
                { blocked: OPTIONAL_TIME, dns: OPTIONAL_TIME, connect: OPTIONAL_TIME, ssl: OPTIONAL_TIME },
              ),
            },
            { pageref: STRING, serverIPAddress: STRING, connection: STRING },
          ),
        },
      },
      { browser: object({ name: STRING, version: STRING }), pages: { type: 'array' } },
    ),
  }),
};

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validateHar = ajv.compile(HAR_SCHEMA);

/** Parses a HAR text the way a HAR consumer does: JSON, then the 1.2 structure. */
function parseHar(text: string): Har {
  const value: unknown = JSON.parse(text);
  assert.ok(validateHar(value), ajv.errorsText(validateHar.errors, { separator: '\n' }));
  return value as Har;
}

/** The exchanges of a transcript, in request order, with the messages each carried. */
function exchangesOf(
  transcript: Transcript,
): Array<{ entries: EventEntry[]; sent: MessageEntry[]; received: MessageEntry[] }> {
  const byNumber = new Map<
    number,
    { entries: EventEntry[]; sent: MessageEntry[]; received: MessageEntry[] }
  >();
  for (const entry of transcript.entries) {
    if (entry.type === 'http-request') byNumber.set(entry.exchange, { entries: [], sent: [], received: [] });
    const exchange =
      'exchange' in entry && entry.exchange !== undefined ? byNumber.get(entry.exchange) : undefined;
    if (exchange === undefined) continue;
    exchange.entries.push(entry);
    if (entry.type === 'message') (entry.from === 'client' ? exchange.sent : exchange.received).push(entry);
  }
  return [...byNumber.values()];
}

/** The events of an SSE text: each event's id and data (SSE, WHATWG HTML 9.2). */
function sseEvents(text: string): Array<{ id: string | undefined; data: string }> {
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const fields = new Map(
        block
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      return { id: fields.get('id'), data: fields.get('data') ?? '' };
    });
}

const REASONS: Record<number, string> = { 200: 'OK', 202: 'Accepted', 204: 'No Content' };

/** Checks every HAR entry against its exchange in the transcript. */
function assertMatches(har: Har, transcript: Transcript): void {
  const exchanges = exchangesOf(transcript);
  assert.equal(har.log.entries.length, exchanges.length, 'one entry per exchange');
  const origin = Date.parse(transcript.header.startedAt);
  har.log.entries.forEach((entry: HarEntry, index) => {
    const { entries, sent, received } = exchanges[index]!;
    const request = entries.find((item) => item.type === 'http-request')!;
    const response = entries.find((item) => item.type === 'http-response')!;
    assert.ok(request.type === 'http-request' && response?.type === 'http-response', `exchange ${index + 1}`);
    assert.equal(entry.startedDateTime, new Date(origin + request.t).toISOString());
    assert.deepEqual([entry.request.method, entry.request.url], [request.method, request.url]);
    assert.deepEqual(
      entry.request.headers,
      Object.entries(request.headers).map(([name, value]) => ({ name, value })),
    );
    assert.deepEqual(
      entry.request.queryString,
      [...new URL(request.url).searchParams].map(([name, value]) => ({ name, value })),
    );
    if (sent.length === 0) assert.equal(entry.request.postData, undefined);
    else {
      assert.equal(entry.request.postData?.mimeType, 'application/json');
      assert.deepEqual(
        JSON.parse(entry.request.postData.text),
        sent.length === 1 ? sent[0]!.message : sent.map((item) => item.message),
      );
    }
    assert.deepEqual(
      [entry.response.status, entry.response.statusText],
      [response.status, REASONS[response.status]],
    );
    assert.deepEqual(
      entry.response.headers,
      Object.entries(response.headers).map(([name, value]) => ({ name, value })),
    );
    const { content } = entry.response;
    assert.equal(content.mimeType, response.headers['content-type'] ?? 'x-unknown');
    assert.equal(content.size, Buffer.byteLength(content.text ?? ''));
    if (content.mimeType.startsWith('text/event-stream'))
      assert.deepEqual(
        sseEvents(content.text ?? ''),
        received.map((item) => ({ id: item.eventId, data: JSON.stringify(item.message) })),
      );
    else if (received.length > 0) {
      assert.deepEqual(JSON.parse(content.text ?? ''), received[0]!.message);
      // The body the server sent, byte for byte: its Content-Length is the text's size.
      assert.equal(content.size, Number(response.headers['content-length']));
    } else assert.equal(content.text, response.body ?? '');
    const { blocked, dns, connect, send, wait, receive } = entry.timings;
    const sum = [blocked, dns, connect, send, wait, receive]
      .filter((ms) => ms >= 0)
      .reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(entry.time - sum) < 0.01, `time ${entry.time} is the sum of the timings ${sum}`);
  });
}

describe('mcpwire report --har', { timeout: 600_000 }, () => {
  let dir: string;
  let http: HttpServer;
  const file = (name: string): string => join(dir, name);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpwire-har-'));
    http = await startOurHttpServer();
    const runs = await Promise.all([
      runCli([
        'call',
        http.url,
        'test_tool_with_logging',
        '--era',
        'handshake',
        '--record',
        file('handshake.jsonl'),
      ]),
      runCli(['list', `${http.url}?tenant=acme`, 'tools', '--record', file('stateless.jsonl')]),
    ]);
    assert.deepEqual(
      runs.map((run) => run.code),
      [0, 0],
      runs.map((run) => run.stderr).join('\n'),
    );
  });

  after(async () => {
    await http[Symbol.asyncDispose]();
    await rm(dir, { recursive: true, force: true });
  });

  test('handshake era: session, 202, GET stream, SSE events, DELETE; each entry its exchange', async () => {
    const run = await runCli(['report', file('handshake.jsonl'), '--har', '-o', file('handshake.har')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^wrote .*handshake\.har \(6 HTTP exchanges\)\n$/);
    const har = parseHar(await readFile(file('handshake.har'), 'utf8'));
    const transcript = parseTranscript(await readFile(file('handshake.jsonl'), 'utf8'));
    assertMatches(har, transcript);
    assert.deepEqual(
      har.log.entries.map(
        (entry) => `${entry.request.method} ${entry.response.status} ${entry.response.content.mimeType}`,
      ),
      [
        'POST 200 application/json',
        'POST 202 x-unknown',
        'GET 200 text/event-stream',
        'POST 200 application/json',
        'POST 200 text/event-stream',
        'DELETE 204 x-unknown',
      ],
    );
    assert.equal(har.log.creator.name, 'mcpwire');
    const events = sseEvents(har.log.entries[4]!.response.content.text ?? '');
    assert.ok(events.length > 1 && events.every((event) => event.id !== undefined));
    // The schema is no rubber stamp: what HAR 1.2 forbids fails it.
    const broken: Array<(copy: Har) => void> = [
      (copy) => delete (copy.log.entries[0]!.timings as Partial<HarEntry['timings']>).wait,
      (copy) => Object.assign(copy.log.entries[0]!.request, { foo: 1 }),
      (copy) => Object.assign(copy.log.entries[0]!.request.postData!, { params: [] }),
      (copy) => Object.assign(copy.log, { version: '1.1' }),
      (copy) => Object.assign(copy.log.entries[0]!, { startedDateTime: 'yesterday' }),
    ];
    for (const breakIt of broken) {
      const copy = structuredClone(har);
      breakIt(copy);
      assert.equal(validateHar(copy), false, breakIt.toString());
    }
  });

  test('stateless era, to the default path beside the transcript: query string and mcp-* headers', async () => {
    const run = await runCli(['report', file('stateless.jsonl'), '--har']);
    assert.equal(run.code, 0, run.stderr);
    const har = parseHar(await readFile(file('stateless.har'), 'utf8'));
    assertMatches(har, parseTranscript(await readFile(file('stateless.jsonl'), 'utf8')));
    const [discover] = har.log.entries;
    assert.deepEqual(discover?.request.queryString, [{ name: 'tenant', value: 'acme' }]);
    assert.ok(
      discover?.request.headers.some(
        (header) => header.name === 'mcp-method' && header.value === 'server/discover',
      ),
    );
  });

  test('a stdio transcript exits 2: HAR needs an HTTP recording; nothing is written', async () => {
    const stdio = file('stdio.jsonl');
    await writeFile(
      stdio,
      `${JSON.stringify({ type: 'header', format: 'mcpwire-transcript', version: 1, recorder: 'mcpwire list', transport: 'stdio', target: 'mcpwire serve everything', startedAt: new Date().toISOString() })}\n`,
    );
    const run = await runCli(['report', stdio, '--har']);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(
      run.stderr,
      /^mcpwire: --har needs an HTTP recording, and .*stdio\.jsonl was recorded over stdio \(mcpwire serve everything\); record one against a URL/,
    );
    assert.equal(existsSync(file('stdio.har')), false);
  });
});
