// `mcpwire report` run as a person runs it, on transcripts recorded for real (`call`/`read --record`
// against our everything server over stdio in both eras, and over Streamable HTTP), each report opened
// in headless Chromium: the DOM after its script ran shows every message of the recording in order,
// requests bracketed to their responses, peer text inert; a screenshot is a real picture of the diagram.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OUR_EVERYTHING, runCli } from './support/cli-process.ts';
import { chromiumSkipReason, decodePng, decodeText, dumpDom, screenshot } from './support/chromium.ts';
import { startOurHttpServer, type HttpServer } from './support/http-servers.ts';
import { REPORT_COLOURS } from '../src/commands/report/report-assets.ts';
import { messagesOf, parseTranscript, type MessageEntry } from '../src/wire/transcript.ts';

/** Peer text that would run, and mark the page, if the report let it through as markup. */
const EVIL = `<script>document.body.dataset.pwned='script'</script><img src=x onerror="document.body.dataset.pwned='img'">`;

const skip = await chromiumSkipReason();

/** An arrow of the diagram as the DOM shows it. */
interface DrawnArrow {
  index: number;
  from: string;
  pair: string | undefined;
  classes: string[];
  label: string;
}

function drawnArrows(dom: string): DrawnArrow[] {
  const pattern =
    /<div class="(arrow [^"]*)" data-index="(\d+)" data-from="(\w+)"(?: data-pair="(\d+)")?><span class="head"><\/span><details><summary><span class="label">([^<]*)<\/span>/g;
  return [...dom.matchAll(pattern)].map((match) => ({
    classes: match[1]!.split(' '),
    index: Number(match[2]),
    from: match[3]!,
    pair: match[4],
    label: decodeText(match[5]!),
  }));
}

/** The label's start as the test reads the message itself: `#id method`, `method`, `#id result|error code`. */
function expectedLabel(entry: MessageEntry): string {
  const message = entry.message as unknown as Record<string, unknown>;
  const id =
    'id' in message
      ? `#${typeof message.id === 'string' ? JSON.stringify(message.id) : String(message.id)} `
      : '';
  if (typeof message.method === 'string') return `${id}${message.method}`;
  if ('error' in message) return `${id}error ${(message.error as { code: number }).code}`;
  return `${id}result`;
}

/** Checks the DOM against the transcript's messages: each an arrow, in order, from its sender, labelled. */
function assertDiagramShows(dom: string, messages: readonly MessageEntry[]): DrawnArrow[] {
  assert.match(dom, /<body data-script="ready">/, 'the report script ran to its end');
  const arrows = drawnArrows(dom);
  assert.deepEqual(
    arrows.map((arrow) => arrow.index),
    messages.map((_, index) => index),
    'every message, in transcript order',
  );
  arrows.forEach((arrow, index) => {
    const entry = messages[index]!;
    assert.equal(arrow.from, entry.from, `message ${index}: sender`);
    assert.ok(arrow.classes.includes(entry.from === 'client' ? 'to-server' : 'to-client'));
    assert.ok(arrow.label.startsWith(expectedLabel(entry)), `message ${index}: "${arrow.label}"`);
    assert.equal(
      arrow.classes.includes('notification'),
      !('id' in entry.message),
      `message ${index}: dashed`,
    );
  });
  return arrows;
}

/** Every response whose request is in the transcript shares a bracket with it (BASE-5, BASE-6). */
function assertPairs(dom: string, arrows: readonly DrawnArrow[], messages: readonly MessageEntry[]): void {
  const requests = new Map<string, number>();
  let expected = 0;
  messages.forEach((entry, index) => {
    const message = entry.message as unknown as Record<string, unknown>;
    const key = JSON.stringify(message.id);
    if ('method' in message && 'id' in message) requests.set(`${entry.from} ${key}`, index);
    else if (!('method' in message)) {
      const request = requests.get(`${entry.from === 'client' ? 'server' : 'client'} ${key}`);
      if (request === undefined) return;
      expected++;
      assert.ok(arrows[index]!.pair !== undefined, `response ${index} is joined`);
      assert.equal(arrows[request]!.pair, arrows[index]!.pair, `response ${index} joins request ${request}`);
      assert.match(
        dom,
        new RegExp(
          `<div class="span[^"]*" style="[^"]*" data-pair="${arrows[index]!.pair}"[^>]* title="request to response: [\\d.]+ ms">`,
        ),
      );
    }
  });
  assert.ok(expected > 0);
  assert.equal(dom.match(/<div class="span/g)?.length, expected, 'one bracket per answered request');
}

/** No element that loads anything: no external resources, links only within the page. */
function assertSelfContained(dom: string): void {
  assert.doesNotMatch(dom, /<(link|img|iframe|object|embed|audio|video|source)\b/i);
  assert.doesNotMatch(dom, /\s(src|srcset|action|poster)="/i);
  assert.doesNotMatch(dom, /url\(|@import/i);
  assert.ok([...dom.matchAll(/\shref="([^"]*)"/g)].every((match) => match[1]!.startsWith('#row-')));
}

describe('mcpwire report, opened in headless Chromium', { skip, timeout: 900_000 }, () => {
  let dir: string;
  let http: HttpServer;
  const file = (name: string): string => join(dir, name);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpwire-report-'));
    http = await startOurHttpServer();
    const runs = await Promise.all([
      runCli([
        'call',
        'echo',
        `message=${EVIL}`,
        '--record',
        file('stdio-stateless.jsonl'),
        '--',
        ...OUR_EVERYTHING,
      ]),
      runCli([
        'read',
        'test://nope',
        '--era',
        'handshake',
        '--record',
        file('stdio-handshake.jsonl'),
        '--',
        ...OUR_EVERYTHING,
      ]),
      runCli([
        'call',
        http.url,
        'test_tool_with_logging',
        '--era',
        'handshake',
        '--record',
        file('http.jsonl'),
      ]),
    ]);
    assert.deepEqual(
      runs.map((run) => run.code),
      [0, 2, 0], // an unknown resource is exit 2 (the exit-code rule)
      runs.map((run) => run.stderr).join('\n'),
    );
  });

  after(async () => {
    await http[Symbol.asyncDispose]();
    await rm(dir, { recursive: true, force: true });
  });

  async function report(name: string): Promise<{ html: string; messages: MessageEntry[] }> {
    const run = await runCli(['report', file(`${name}.jsonl`)]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      new RegExp(`^wrote ${file(`${name}.html`)} \\(\\d+ messages, \\d+ failures?\\)\\n$`),
    );
    const transcript = parseTranscript(await readFile(file(`${name}.jsonl`), 'utf8'));
    return { html: file(`${name}.html`), messages: messagesOf(transcript) };
  }

  test('stdio, stateless era: every message in order; the echoed <script> and <img> stay text', async () => {
    const { html, messages } = await report('stdio-stateless');
    const dom = await dumpDom(html);
    const arrows = assertDiagramShows(dom, messages);
    assertPairs(dom, arrows, messages);
    assertSelfContained(dom);
    assert.deepEqual(
      arrows.map((arrow) => arrow.label),
      ['#1 server/discover', '#1 result', '#2 tools/list', '#2 result', '#3 tools/call echo', '#3 result'],
    );
    assert.doesNotMatch(dom, /data-pwned/, 'no peer markup ran');
    assert.equal(dom.match(/<script/g)?.length, 1);
    // The argument and the server's echo of it, shown as text in the expandable JSON.
    assert.ok(dom.split('&lt;img src=x onerror=').length - 1 >= 2);
    assert.match(dom, /stateless era \(2026-07-28\)/);
    assert.match(dom, /class="note spawn over-server/);
    assert.match(dom, /server exited with code 0/);
  });

  test('stdio, handshake era: the error response is marked in words and colour', async () => {
    const { html, messages } = await report('stdio-handshake');
    const dom = await dumpDom(html);
    const arrows = assertDiagramShows(dom, messages);
    assertPairs(dom, arrows, messages);
    // resources/read of an unknown URI: -32002 in 2025-11-25 (the transcript says which).
    const errors = messages.filter((entry) => 'error' in entry.message).map(expectedLabel);
    assert.deepEqual(errors, ['#2 error -32002']);
    const failed = arrows.filter((arrow) => arrow.classes.includes('failure'));
    assert.deepEqual(
      failed.map((arrow) => arrow.label),
      errors,
    );
    assert.match(dom, /handshake era \(initialize, protocolVersion 2025-11-25\)/);
    assert.match(dom, /Failures: <a href="#row-\d+">#2 error -32002<\/a>/);
  });

  test('Streamable HTTP: exchanges and statuses as notes, SSE event ids on their messages', async () => {
    const { html, messages } = await report('http');
    const dom = await dumpDom(html);
    const arrows = assertDiagramShows(dom, messages);
    assertPairs(dom, arrows, messages);
    assertSelfContained(dom);
    const notes = [...dom.matchAll(/class="note (http-\w+) over-(\w+)[^"]*"><summary>([^<]*)</g)].map(
      (match) => `${match[1]} ${match[2]}: ${match[3]}`,
    );
    assert.ok(notes.includes('http-request client: POST /mcp (exchange 1)'), notes.join('\n'));
    assert.ok(notes.includes('http-response server: HTTP 202 (exchange 2)'), notes.join('\n'));
    assert.ok(notes.some((note) => /^http-response server: HTTP 200 text\/event-stream/.test(note)));
    const withEvents = messages.filter((entry) => entry.eventId !== undefined);
    assert.ok(withEvents.length > 0);
    for (const entry of withEvents)
      assert.ok(dom.includes(`<span class="tag">event ${entry.eventId}</span>`));
  });

  test('a screenshot is a picture of the diagram: the window size, not blank, its colours', async () => {
    const { html } = await report('stdio-handshake');
    const png = file('handshake.png');
    await screenshot(html, png, { width: 1280, height: 800 });
    const image = decodePng(await readFile(png));
    assert.deepEqual([image.width, image.height], [1280, 800]);
    const counts = new Map<number, number>();
    let inked = 0;
    for (let at = 0; at < image.pixels.length; at += 4) {
      const rgb = (image.pixels[at]! << 16) | (image.pixels[at + 1]! << 8) | image.pixels[at + 2]!;
      counts.set(rgb, (counts.get(rgb) ?? 0) + 1);
      if (rgb !== 0xffffff) inked++;
    }
    assert.ok(counts.size > 100, `${counts.size} colours: text and lines were drawn`);
    assert.ok(inked / (image.width * image.height) > 0.02, `${inked} pixels not white`);
    // The arrow lines and lifelines are solid CSS colours, so the PNG holds them exactly.
    for (const [name, colour] of Object.entries(REPORT_COLOURS)) {
      if (name === 'note') continue;
      assert.ok((counts.get(Number.parseInt(colour.slice(1), 16)) ?? 0) > 100, `${name} ${colour} is drawn`);
    }
  });

  test('a few thousand messages: every one drawn, one bracket per exchange', async () => {
    const lines = [
      {
        type: 'header',
        format: 'mcpwire-transcript',
        version: 1,
        recorder: 'test',
        transport: 'stdio',
        target: 'a server',
        startedAt: new Date(0).toISOString(),
      },
    ];
    for (let id = 1; id <= 1500; id++)
      lines.push(
        {
          type: 'message',
          t: id * 2,
          from: 'client',
          message: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: `tool_${id}` } },
        } as never,
        {
          type: 'message',
          t: id * 2 + 1,
          from: 'server',
          message: { jsonrpc: '2.0', id, result: { content: [] } },
        } as never,
      );
    await writeFile(file('large.jsonl'), lines.map((line) => JSON.stringify(line)).join('\n'));
    const { html, messages } = await report('large');
    const dom = await dumpDom(html);
    assert.equal(messages.length, 3000);
    const arrows = assertDiagramShows(dom, messages);
    assert.equal(arrows.at(-1)?.label, '#1500 result');
    assert.equal(dom.match(/<div class="span/g)?.length, 1500);
  });
});
