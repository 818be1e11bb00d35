import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { test } from 'node:test';
import { SameAnswer } from './same-answer.ts';

const answer = (id: number | string, text = 'hi'): string =>
  `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"${text}"}]}}`;

/** The id `same` reads from the line `text`, matched as the engine matches it: as bytes, inside a larger buffer. */
function idOf(same: SameAnswer, text: string): number {
  const bytes = Buffer.from(`x\n${text}\ny`);
  return same.idOf(bytes, 2, bytes.length - 2);
}

function remembered(text: string, id: number): SameAnswer {
  const same = new SameAnswer();
  const { result } = JSON.parse(text) as { result: Record<string, never> };
  same.remember(text, id, result);
  return same;
}

test('the same answer around another id gives that id and the result already parsed', () => {
  const same = remembered(answer(1073741824), 1073741824);
  assert.equal(idOf(same, answer(1073741999)), 1073741999);
  assert.deepEqual(same.result, { content: [{ type: 'text', text: 'hi' }] });
  assert.equal(idOf(same, answer(7)), 7);
});

test('another answer, a non-number id or a leading zero is no match (the line is parsed)', () => {
  const same = remembered(answer(1073741824), 1073741824);
  assert.equal(idOf(same, answer(1073741825)), 1073741825, 'a match first, so misses keep the template');
  assert.equal(idOf(same, answer(1073741825, 'ho')), -1);
  assert.equal(idOf(same, answer('"1073741825"')), -1);
  assert.equal(idOf(same, answer('1.5')), -1);
  assert.equal(idOf(same, answer('0123')), -1);
  assert.equal(idOf(same, answer('')), -1);
  assert.equal(idOf(same, answer(1073741826)), 1073741826, 'still kept after those misses');
});

test('no template where the id text occurs twice, or where its one occurrence is not the id', () => {
  const twice = remembered(answer(1073741824, '1073741824'), 1073741824);
  assert.equal(idOf(twice, answer(1073741825, '1073741824')), -1);
  // The id written as 1.073741824e9: its digits occur once, in the result, which is not the id.
  const elsewhere = '{"jsonrpc":"2.0","id":1.073741824e9,"result":{"n":1073741824}}';
  const same = remembered(elsewhere, 1073741824);
  assert.equal(idOf(same, '{"jsonrpc":"2.0","id":1.073741824e9,"result":{"n":5}}'), -1);
  assert.equal(idOf(same, elsewhere), -1);
});

test('answers that differ every time: after four templates that never matched, none is made', () => {
  const same = new SameAnswer();
  let misses = 0;
  for (let index = 0; index < 10; index++) {
    const id = 1073741824 + index;
    const text = answer(id, `echo ${index}`);
    if (idOf(same, text) === -1) {
      misses++;
      same.countMiss();
    }
    same.remember(text, id, {});
  }
  assert.equal(misses, 10);
  // Past the cap an answer that repeats is not remembered either: the cache has given up.
  same.remember(answer(1), 1, {});
  assert.equal(idOf(same, answer(2)), -1);
});

test('a template that matched is dropped after 64 misses in a row, and a new one is made', () => {
  const same = remembered(answer(1), 1);
  assert.equal(idOf(same, answer(2)), 2);
  for (let index = 0; index < 64; index++) {
    assert.equal(idOf(same, answer(3, 'new')), -1);
    same.countMiss();
  }
  same.remember(answer(4, 'new'), 4, {});
  assert.equal(idOf(same, answer(5, 'new')), 5);
});

test('a notification between answers is no miss: the template is kept', () => {
  const same = remembered(answer(1), 1);
  const progress =
    '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}';
  // Before its first match and after it: neither may drop the template.
  idOf(same, progress);
  assert.equal(idOf(same, answer(2)), 2);
  for (let index = 0; index < 100; index++) {
    idOf(same, progress);
    assert.equal(idOf(same, answer(3 + index)), 3 + index);
  }
});

test('a template with characters beyond ASCII matches by bytes, and one character changed misses', () => {
  const same = remembered(answer(1073741824, '中文 😀'), 1073741824);
  assert.equal(idOf(same, answer(1073741825, '中文 😀')), 1073741825);
  assert.equal(idOf(same, answer(1073741826, '中文 😁')), -1);
});
