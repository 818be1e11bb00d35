// ExchangeAbort keeps an AbortSignal's rules for the listeners it holds itself: one abort, listeners
// once and in order, none after the abort, and a signal made on demand that follows it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExchangeAbort } from './exchange-abort.ts';

describe('ExchangeAbort', () => {
  it('aborts once: listeners called once in order, the reason kept, a second abort ignored', () => {
    const abort = new ExchangeAbort();
    const calls: string[] = [];
    abort.addEventListener('abort', () => calls.push(`a ${String(abort.reason)}`));
    abort.addEventListener('abort', () => calls.push('b'));
    assert.equal(abort.aborted, false);
    abort.abort('first');
    abort.abort('second');
    assert.deepEqual(calls, ['a first', 'b']);
    assert.equal(abort.aborted, true);
    assert.equal(abort.reason, 'first');
  });

  it('without a reason, aborts with an AbortError', () => {
    const abort = new ExchangeAbort();
    abort.abort();
    assert.ok(abort.reason instanceof DOMException);
    assert.equal(abort.reason.name, 'AbortError');
  });

  it('a removed listener, or one added after the abort, is not called', () => {
    const abort = new ExchangeAbort();
    let calls = 0;
    const removed = (): void => void calls++;
    abort.addEventListener('abort', removed);
    abort.removeEventListener('abort', removed);
    abort.abort();
    abort.addEventListener('abort', () => calls++);
    assert.equal(calls, 0);
  });

  it('its signal, read before or after the abort, is aborted with the same reason', () => {
    const before = new ExchangeAbort();
    const signal = before.signal;
    assert.equal(signal.aborted, false);
    assert.equal(before.signal, signal, 'one signal');
    before.abort('why');
    assert.equal(signal.aborted, true);
    assert.equal(signal.reason, 'why');
    const after = new ExchangeAbort();
    after.abort('late');
    assert.equal(after.signal.aborted, true);
    assert.equal(after.signal.reason, 'late');
  });
});
