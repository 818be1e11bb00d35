import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProgressLine } from './progress-line.ts';

function stream(columns?: number): { columns?: number; written: string[]; write(text: string): void } {
  const written: string[] = [];
  return { ...(columns === undefined ? {} : { columns }), written, write: (text) => void written.push(text) };
}

test('each update redraws one line, a server message escaped and the line cut to the width; clear erases once', () => {
  const out = stream(30);
  {
    using line = new ProgressLine(out, 'tool\x1b[2A');
    line.show({ progress: 1, total: 4, message: 'step\x1b]52;c;eA==\x07 one of four' });
    line.show({ progress: 2 });
  }
  assert.deepEqual(out.written, [
    '\r\x1b[2Ktool\\x1b[2A 1/4 (25%) step…', // the escape \x1b]52 is not split
    '\r\x1b[2Ktool\\x1b[2A 2',
    '\r\x1b[2K',
  ]);
});

test('nothing shown, nothing erased; 80 columns when the stream reports none', () => {
  const out = stream();
  const line = new ProgressLine(out, 't');
  line.clear();
  assert.equal(out.written.length, 0);
  line.show({ progress: 1, message: 'x'.repeat(200) });
  assert.equal(out.written[0]!.length, '\r\x1b[2K'.length + 79);
  line.clear();
  line.clear();
  assert.equal(out.written.length, 2);
});
