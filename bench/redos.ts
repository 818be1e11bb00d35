// Adversarial inputs of growing size against the code that reads peer input with patterns: the URI
// template matcher (through a Server's resources/read), the header value decoder, the Mcp-Param-* and
// Mcp-Name checks (through the HTTP handler), Last-Event-ID parsing, and the one expression the
// linear-time check lets through on review (the github server's search tokenizer). Prints the time per input at
// each size and the growth exponent (slope of log time over log size: 1 is linear, 2 quadratic); two
// control rows with known super-linear expressions show what the table looks like when it is not.
// Writes bench/results/redos-latest.json. Run: node --conditions=@mcpwire/source --import tsx bench/redos.ts
// Env: BENCH_QUICK=1 for smaller sizes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { UriTemplate as SdkUriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import ts from 'typescript';
import { createMemoryPair } from 'mcpwire';
import { Client } from 'mcpwire/client';
import { createHttpHandler, decodeHeaderValue, InMemoryEventStore } from 'mcpwire/http';
import { Server } from 'mcpwire/server';

import { formatNumber, formatTable, median } from './stats.ts';

const isQuick = process.env.BENCH_QUICK === '1';
/** Sizes in characters; URIs stop below the matcher's 64 KiB cap (a longer URI is refused unread). */
const URI_SIZES = isQuick ? [1_000, 4_000, 16_000] : [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000];
const TEXT_SIZES = isQuick ? [4_000, 16_000, 64_000] : [4_000, 16_000, 64_000, 256_000, 1_024_000];
/** A family whose one call takes longer than this is not run at larger sizes. */
const BUDGET_MS = 2_000;

interface Family {
  name: string;
  sizes: readonly number[];
  /** The call to time on one adversarial input of about `size` characters, built beforehand (untimed). */
  prepare(size: number): () => unknown;
  isControl?: boolean;
}

/** A family whose input is built by `input` and read by `run`. */
function family<T>(
  name: string,
  sizes: readonly number[],
  input: (size: number) => T,
  run: (input: T) => unknown,
): Family {
  return {
    name,
    sizes,
    prepare: (size) => {
      const value = input(size);
      return () => run(value);
    },
  };
}

const TEMPLATES: ReadonlyArray<readonly [string, (n: number) => string]> = [
  ['r1://{/ids*}{?tags*}/end', (n) => `r1:///${'a,'.repeat(n / 2)}`],
  ['r2://{a}-{b}-{c}-{d}-{e}.json', (n) => `r2://${'-'.repeat(n)}x`],
  ['r3://{+a}/{+b}/{+c}/{+d}?x', (n) => `r3://${'/'.repeat(n)}`],
  ['r4://{?a,b,c}{&d}', (n) => `r4://?${'x=&'.repeat(n / 3)}d=1`],
  ['r5://{v0}0{v1}{;m}', (n) => `r5://${'%30'.repeat(n / 3)};m=${'0'.repeat(8)}`],
];

async function uriFamilies(): Promise<Family[]> {
  const server = new Server({ name: 'redos-bench', version: '1.0.0' }, { onError: () => {} });
  for (const [uriTemplate] of TEMPLATES) server.resource({ uriTemplate, name: uriTemplate }, () => 'x');
  const [clientSide, serverSide] = createMemoryPair();
  server.connect(serverSide);
  const client = new Client({ name: 'redos-bench', version: '1.0.0' });
  await client.connect(clientSide);
  return TEMPLATES.map(([template, make]) =>
    family(`URI template ${template}`, URI_SIZES, make, (uri) =>
      client.readResource({ uri }).catch(() => undefined),
    ),
  );
}

function handlerFamilies(): Family[] {
  const server = new Server({ name: 'redos-bench', version: '1.0.0' }, { onError: () => {} });
  server.tool(
    {
      name: 'count',
      inputSchema: { type: 'object', properties: { n: { type: 'integer', 'x-mcp-header': 'N' } } },
    },
    () => 'ok',
  );
  const handler = createHttpHandler(server, { keepAliveMs: 0 });
  const request = (params: Record<string, unknown>, headers: Record<string, string>) => () =>
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        ...headers,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
  // A Request body can be read once: each call builds its Request from strings made beforehand.
  const post = (make: () => Request) => handler(make()).then((response) => response.text());
  const call = { name: 'count', arguments: { n: 7 } };
  return [
    family(
      'Mcp-Param-N: digits then a stray "x"',
      TEXT_SIZES,
      (size) => request(call, { 'Mcp-Name': 'count', 'Mcp-Param-N': `${'1'.repeat(size)}x` }),
      post,
    ),
    family(
      'Mcp-Param-N: "-1.1.1.1..."',
      TEXT_SIZES,
      (size) => request(call, { 'Mcp-Name': 'count', 'Mcp-Param-N': `-1${'.1'.repeat(size / 2)}` }),
      post,
    ),
    family(
      'Mcp-Name: a long base64 name one byte off',
      TEXT_SIZES,
      (size) =>
        request({ name: 'count', arguments: {} }, { 'Mcp-Name': `=?base64?${'QUFB'.repeat(size / 4)}QQ?=` }),
      post,
    ),
  ];
}

function parserFamilies(): Family[] {
  const store = new InMemoryEventStore();
  return [
    family(
      'header value: base64 "AAAA..." one char short',
      TEXT_SIZES,
      (size) => `=?base64?${'A'.repeat(size + 1)}?=`,
      decodeHeaderValue,
    ),
    family(
      'header value: spaces then a control character',
      TEXT_SIZES,
      (size) => `${' '.repeat(size)}\u0001`,
      decodeHeaderValue,
    ),
    family(
      'Last-Event-ID: ":::...1"',
      TEXT_SIZES,
      (size) => `${':'.repeat(size)}1`,
      (id) => store.replayAfter(id),
    ),
    family(
      'Last-Event-ID: "s:000...0"',
      TEXT_SIZES,
      (size) => `s:${'0'.repeat(size)}`,
      (id) => store.replayAfter(id),
    ),
  ];
}

/**
 * The reviewed exception of test/regex-linear.test.ts: the search tokenizer of the github server, read
 * from its source (the package does not export it), on the inputs its shape would be slow on.
 */
function reviewedFamilies(): Family[] {
  const file = join(import.meta.dirname, '../packages/server-github/src/search/query-tokens.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  let literal = '';
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === 'TOKEN' && node.initializer)
      literal = node.initializer.getText(source);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const slash = literal.lastIndexOf('/');
  const token = new RegExp(literal.slice(1, slash), literal.slice(slash + 1));
  // Counted, not kept: keeping every match measures the garbage collector, not the expression.
  const tokens = (text: string) => {
    let count = 0;
    for (const _ of text.matchAll(token)) count++;
    return count;
  };
  return [
    family('github search tokens: "aaaa..."', TEXT_SIZES, (size) => 'a'.repeat(size), tokens),
    family(
      'github search tokens: \'a:"\' then " x x x..."',
      TEXT_SIZES,
      (size) => `a:"${' x'.repeat(size / 2)}`,
      tokens,
    ),
    family("github search tokens: 'a:\"b ' repeated", TEXT_SIZES, (size) => 'a:"b '.repeat(size / 5), tokens),
  ];
}

function controlFamilies(): Family[] {
  const quadratic = /\s*\n\s*/g;
  const sdkTemplate = new SdkUriTemplate('{a}{b}');
  return [
    family(
      'control: /\\s*\\n\\s*/g on spaces (quadratic)',
      URI_SIZES,
      (size) => `${' '.repeat(size)}x`,
      (text) => text.replace(quadratic, ' '),
    ),
    family(
      'control: official SDK UriTemplate {a}{b} (regex)',
      URI_SIZES,
      (size) => `${'a'.repeat(size)}/`,
      (uri) => sdkTemplate.match(uri),
    ),
  ].map((control) => ({ ...control, isControl: true }));
}

/** Median milliseconds per call of `family` at `size`, over enough calls to pass 20 ms (at least 3). */
async function timeAt(family: Family, size: number): Promise<number> {
  const call = family.prepare(size);
  await call();
  const samples: number[] = [];
  let total = 0;
  while (samples.length < 3 || (total < 20 && samples.length < 50)) {
    const start = performance.now();
    await call();
    const elapsed = performance.now() - start;
    samples.push(elapsed);
    total += elapsed;
    if (elapsed > BUDGET_MS) break;
  }
  return median(samples) ?? Number.NaN;
}

/** Least-squares slope of log(ms) over log(size): the growth exponent. */
function growth(points: ReadonlyArray<readonly [number, number]>): number {
  const xs = points.map(([size]) => Math.log(size));
  const ys = points.map(([, ms]) => Math.log(Math.max(ms, 1e-6)));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const num = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0);
  const den = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  return den === 0 ? Number.NaN : num / den;
}

function verdict(slope: number): string {
  if (!Number.isFinite(slope)) return '—';
  if (slope <= 1.3) return 'linear';
  return slope >= 1.7 ? `super-linear (n^${slope.toFixed(1)})` : 'unclear';
}

const families = [
  ...(await uriFamilies()),
  ...handlerFamilies(),
  ...parserFamilies(),
  ...reviewedFamilies(),
  ...controlFamilies(),
];
const results: Array<{ name: string; points: Array<[number, number]>; slope: number; isControl: boolean }> =
  [];
for (const family of families) {
  const points: Array<[number, number]> = [];
  for (const size of family.sizes) {
    const ms = await timeAt(family, size);
    points.push([size, ms]);
    if (ms > BUDGET_MS) break;
  }
  // The two smallest sizes sit near the timer's floor for the fastest families; the slope uses the rest.
  const slope = growth(points.length > 3 ? points.slice(2) : points);
  results.push({ name: family.name, points, slope, isControl: family.isControl === true });
  process.stderr.write('.');
}
process.stderr.write('\n');

for (const sizes of [URI_SIZES, TEXT_SIZES]) {
  const rows = results
    .filter((result) => result.points[0]?.[0] === sizes[0])
    .map((result) => [
      result.name,
      ...sizes.map((size) => formatNumber(result.points.find(([s]) => s === size)?.[1], 3)),
      result.slope.toFixed(2),
      verdict(result.slope),
    ]);
  const header = [
    'input (ms per call, median)',
    ...sizes.map((size) => `${formatNumber(size / 1000)}K`),
    'slope',
    'growth',
  ];
  process.stdout.write(`${formatTable(header, rows)}\n\n`);
}

const resultsDir = join(import.meta.dirname, 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  join(resultsDir, 'redos-latest.json'),
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, isQuick, results }, null, 2)}\n`,
);
process.exit(0);
