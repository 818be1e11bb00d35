// One fuzz target per walker over untrusted JSON (issue 21), library and CLI, and the hostile shapes
// they are fed: deep (arrays and objects), wide, long strings, lone surrogates, `__proto__` keys.
// A target passes when it returns, or throws one of the typed errors it documents: never a
// RangeError (stack exhausted) or a TypeError (a walker that met a shape it did not expect).

import { decodeFrame } from '../../packages/mcpwire/src/jsonrpc/codec.ts';
import {
  checkParamHeaders,
  findHeaderParams,
} from '../../packages/mcpwire/src/transports/http/param-headers.ts';
import {
  readHeaderAnnotations,
  ToolHeaderRegistry,
} from '../../packages/mcpwire/src/transports/http/tool-header-annotations.ts';
import { createAjvValidator } from '../../packages/mcpwire/src/validation/ajv-validator.ts';
import { toCanonicalJson } from '../../packages/mcpwire/src/validation/canonical-json.ts';
import { createCfWorkerValidator } from '../../packages/mcpwire/src/validation/cfworker-validator.ts';
import type { JsonSchema } from '../../packages/mcpwire/src/validation/json-schema-validator.ts';
import { toTerminalJson, toTerminalText } from '../../packages/cli/src/terminal-text.ts';
import { toCappedJson } from '../../packages/cli/src/wire/json-depth.ts';
import { lintTranscript } from '../../packages/cli/src/wire/lint/lint-sink.ts';
import { WireRecorder, type WireSink } from '../../packages/cli/src/wire/recorder.ts';
import { canonicalParams } from '../../packages/cli/src/wire/replay/canonical-params.ts';
import { diffJson } from '../../packages/cli/src/wire/replay/json-diff.ts';
import { ReplayBook } from '../../packages/cli/src/wire/replay/replay-book.ts';
import { toReportModel } from '../../packages/cli/src/wire/report/report-model.ts';
import { parseTranscript, TranscriptError, type EventEntry } from '../../packages/cli/src/wire/transcript.ts';

/** One input: the value and its JSON text (built without recursion: JSON.stringify fails on deep values). */
export interface FuzzInput {
  name: string;
  value: unknown;
  text: string;
}

/** A walker under test: `run` may return anything, or throw one of the `expected` error classes. */
export interface FuzzTarget {
  name: string;
  run: (input: FuzzInput) => unknown;
  expected?: ReadonlyArray<abstract new (...args: never[]) => Error>;
}

/** An input from its value; the text is the canonical JSON, which is exact at any depth. */
export function inputOf(name: string, value: unknown): FuzzInput {
  return { name, value, text: toCanonicalJson(value) };
}

/** An input from its text (so a duplicate `__proto__` key stays data, as JSON.parse makes it). */
export function inputOfText(name: string, text: string): FuzzInput {
  return { name, value: JSON.parse(text) as unknown, text };
}

/** The hostile shapes at full size (`scale` 1: 10^5 levels or keys, 10 MB strings). */
export function hostileInputs(scale = 1): FuzzInput[] {
  const levels = Math.max(2, Math.round(100_000 * scale));
  const length = Math.max(2, Math.round(10_000_000 * scale));
  const wide = Object.fromEntries(Array.from({ length: levels }, (_, index) => [`k${index}`, index]));
  return [
    inputOfText('deep arrays', '['.repeat(levels) + ']'.repeat(levels)),
    inputOfText('deep objects', '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)),
    inputOfText(
      'deep properties chain',
      '{"type":"object","properties":{"a":'.repeat(levels) +
        '{"type":"string","x-mcp-header":"H"}' +
        '}}'.repeat(levels),
    ),
    inputOf('wide object', wide),
    inputOf(
      'wide array',
      Array.from({ length: levels }, (_, index) => ({ id: index })),
    ),
    inputOf('long string', { text: 'x'.repeat(length) }),
    inputOf('lone surrogates', { '\ud800': '\udc00 \ud83d', text: 'a\udfffb', list: ['\ud800'] }),
    inputOfText(
      '__proto__ and constructor keys',
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"properties":{"__proto__":{"type":"string","x-mcp-header":"P"}}}',
    ),
  ];
}

const NO_HEADERS = { get: (): string | null => null };

function transcriptText(input: FuzzInput): string {
  const header =
    '{"type":"header","format":"mcpwire-transcript","version":1,"recorder":"fuzz","transport":"stdio","target":"fuzz","startedAt":"2026-01-01T00:00:00.000Z"}';
  const request = `{"type":"message","t":1,"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":${input.text}}}}`;
  const response = `{"type":"message","t":2,"from":"server","message":{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":${input.text}}}}`;
  const odd = `{"type":"message","t":3,"from":"server","message":${input.text}}`;
  return `${header}\n${request}\n${response}\n${odd}\n`;
}

/** Every walker over untrusted JSON, each fed the value the way a peer or a transcript file feeds it. */
export const TARGETS: readonly FuzzTarget[] = [
  { name: 'codec decodeFrame', run: (input) => decodeFrame(input.text) },
  { name: 'canonical JSON', run: (input) => toCanonicalJson(input.value) },
  {
    name: 'param headers (server)',
    run: (input) => checkParamHeaders(findHeaderParams(input.value), input.value, NO_HEADERS),
  },
  {
    name: 'header annotations (client tools/list)',
    run: (input) => {
      readHeaderAnnotations(input.value);
      return new ToolHeaderRegistry(() => {}).filterToolsList({
        tools: [{ name: 't', inputSchema: input.value }],
      });
    },
  },
  {
    name: 'Ajv validator (schema and value)',
    run: (input) => createAjvValidator().compile(input.value as JsonSchema)(input.value),
  },
  {
    name: 'cfworker validator and its message paths',
    run: (input) => createCfWorkerValidator().compile(input.value as JsonSchema)(input.value),
  },
  {
    name: 'recorder redaction and depth cut',
    run: (input) => {
      const entries: EventEntry[] = [];
      const sink: WireSink = { entry: (entry) => entries.push(entry) };
      const recorder = new WireRecorder(
        { recorder: 'fuzz', transport: 'stdio', target: 'fuzz' },
        { sinks: [sink] },
      );
      recorder.line('server', `{"jsonrpc":"2.0","id":1,"result":{"password":"p","value":${input.text}}}`);
      recorder.line('client', input.text);
      return entries.map((entry) => toCappedJson(entry));
    },
  },
  {
    name: 'transcript reader, lint, report, replay',
    run: (input) => {
      const transcript = parseTranscript(transcriptText(input), 'fuzz.jsonl');
      lintTranscript(transcript);
      toReportModel(transcript);
      ReplayBook.fromTranscript(transcript, 'client');
      const [request, response] = transcript.entries;
      const params =
        request?.type === 'message' ? (request.message as { params?: object }).params : undefined;
      canonicalParams(params as Parameters<typeof canonicalParams>[0]);
      return response?.type === 'message' ? diffJson(response.message, response.message) : undefined;
    },
    expected: [TranscriptError],
  },
  {
    name: 'toTerminalText / toTerminalJson',
    run: (input) => [toTerminalText(input.text), toTerminalJson(toCappedJson(input.value))],
  },
];

/** Runs `target` on `input`: undefined when it passed, else why it failed. */
export function failureOf(target: FuzzTarget, input: FuzzInput): string | undefined {
  try {
    target.run(input);
    return undefined;
  } catch (error) {
    if (target.expected?.some((kind) => error instanceof kind)) return undefined;
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return `${target.name} on ${input.name}: ${what}`;
  }
}
