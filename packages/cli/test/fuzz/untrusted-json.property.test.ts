// A fuzz target per walker of the CLI over untrusted JSON (issue 21): the recorder (depth cut and
// redaction), the transcript reader with lint, the report model and the replay matcher, and the
// terminal escaping. The inputs and the pass rule: test/support/hostile-json.ts.

import { toTerminalJson, toTerminalText } from '../../src/terminal/terminal-text.ts';
import { toCappedJson } from '../../src/wire/json-depth.ts';
import { lintTranscript } from '../../src/wire/lint/lint-sink.ts';
import { WireRecorder, type WireSink } from '../../src/wire/recorder.ts';
import { canonicalParams } from '../../src/commands/replay/canonical-params.ts';
import { diffJson } from '../../src/commands/replay/json-diff.ts';
import { ReplayBook } from '../../src/commands/replay/replay-book.ts';
import { toReportModel } from '../../src/commands/report/report-model.ts';
import { parseTranscript, TranscriptError, type EventEntry } from '../../src/wire/transcript.ts';
import { fuzzTargets, type FuzzInput, type FuzzTarget } from '../../../../test/support/hostile-json.ts';

const HEADER =
  '{"type":"header","format":"mcpwire-transcript","version":1,"recorder":"fuzz","transport":"stdio","target":"fuzz","startedAt":"2026-01-01T00:00:00.000Z"}';

/** A transcript with the input as tool arguments, as structured content, and as a message of its own. */
function transcriptText(input: FuzzInput): string {
  return [
    HEADER,
    `{"type":"message","t":1,"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":${input.text}}}}`,
    `{"type":"message","t":2,"from":"server","message":{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":${input.text}}}}`,
    `{"type":"message","t":3,"from":"server","message":${input.text}}`,
    '',
  ].join('\n');
}

const TARGETS: readonly FuzzTarget[] = [
  {
    name: 'recorder: depth cut and redaction',
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
    name: 'transcript reader, lint, report model, replay matcher',
    run: (input) => {
      const transcript = parseTranscript(transcriptText(input), 'fuzz.jsonl');
      lintTranscript(transcript);
      toReportModel(transcript);
      ReplayBook.fromTranscript(transcript, 'client');
      const [request, response] = transcript.entries;
      if (request?.type === 'message' && 'params' in request.message) canonicalParams(request.message.params);
      return response?.type === 'message' ? diffJson(response.message, response.message) : undefined;
    },
    expected: [TranscriptError],
  },
  {
    name: 'toTerminalText and toTerminalJson',
    run: (input) => [toTerminalText(input.text), toTerminalJson(toCappedJson(input.value))],
  },
];

fuzzTargets('fuzz targets: CLI walkers over untrusted JSON', TARGETS);
