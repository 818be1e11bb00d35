// Golden wire transcripts: `> ` lines are what a client sends (JSON, or raw text after `> raw `),
// `< ` lines what the server must answer, in order. Expected values may use "<any>", "<string>",
// "<number>", "<absent>" (the key must not be there) and "{{capture:NAME}}" (record the value);
// client lines may use "{{NAME}}" inside strings to replay a captured value.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodeFrame, encodeMessage } from 'mcpwire';
import type { Message } from 'mcpwire';
import type { Channel, ChannelReceiver } from 'mcpwire';

/** A server-side channel the runner drives directly with text, as a stdio stream would. */
class ScriptChannel implements Channel {
  readonly inbox: Message[] = [];
  #receiver: ChannelReceiver | undefined;
  #waiters: Array<() => void> = [];

  open(receiver: ChannelReceiver): void {
    this.#receiver = receiver;
  }

  send(message: Message | readonly Message[]): Promise<void> {
    // Through the codec, as on the wire.
    const copy = JSON.parse(encodeMessage(message)) as Message | Message[];
    for (const item of Array.isArray(copy) ? copy : [copy]) this.inbox.push(item);
    for (const wake of this.#waiters.splice(0)) wake();
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#receiver?.handleClose();
    return Promise.resolve();
  }

  deliver(text: string): void {
    this.#receiver?.handleFrame(decodeFrame(text));
  }

  async next(deadlineMs: number): Promise<Message> {
    const started = Date.now();
    while (this.inbox.length === 0) {
      if (Date.now() - started > deadlineMs) throw new Error('the server sent nothing more');
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.inbox.shift()!;
  }
}

/** Runs one transcript file against a server connected to the script channel. */
export async function runTranscript(
  path: string,
  connect: (channel: Channel) => { close(): Promise<void> },
): Promise<void> {
  const channel = new ScriptChannel();
  const server = connect(channel);
  const captures = new Map<string, unknown>();
  const lines = readFileSync(path, 'utf8').split('\n');
  try {
    for (const [index, line] of lines.entries()) {
      const where = `${path}:${index + 1}`;
      if (line.startsWith('> raw ')) channel.deliver(line.slice(6));
      else if (line.startsWith('> ')) channel.deliver(substitute(line.slice(2), captures));
      else if (line.startsWith('< ')) {
        const expected: unknown = JSON.parse(line.slice(2));
        const actual = await channel
          .next(5000)
          .catch((error: Error) => assert.fail(`${where}: expected ${line.slice(2)} but ${error.message}`));
        match(expected, actual, captures, where, '$');
      } else if (line.startsWith('= quiet')) {
        // Nothing else may arrive for a moment (e.g. no log messages without a log level).
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.deepEqual(channel.inbox, [], `${where}: the server sent more than expected`);
      }
    }
    assert.deepEqual(channel.inbox, [], `${path}: the server sent messages the transcript does not expect`);
  } finally {
    await server.close();
  }
}

function substitute(text: string, captures: Map<string, unknown>): string {
  return text.replace(/\{\{([A-Za-z0-9_]+)\}\}/g, (whole, name: string) => {
    if (!captures.has(name)) throw new Error(`No capture named ${name}`);
    // Inside a JSON string: insert the captured string's JSON-escaped body.
    return JSON.stringify(captures.get(name)).slice(1, -1);
  });
}

function match(
  expected: unknown,
  actual: unknown,
  captures: Map<string, unknown>,
  where: string,
  path: string,
): void {
  if (typeof expected === 'string') {
    const capture = /^\{\{capture:([A-Za-z0-9_]+)\}\}$/.exec(expected);
    if (capture) return void captures.set(capture[1]!, actual);
    if (expected === '<any>') return assert.notEqual(actual, undefined, `${where} ${path}: expected a value`);
    if (expected === '<string>')
      return assert.equal(typeof actual, 'string', `${where} ${path}: expected a string`);
    if (expected === '<number>')
      return assert.equal(typeof actual, 'number', `${where} ${path}: expected a number`);
  }
  if (typeof expected !== 'object' || expected === null)
    return assert.deepEqual(actual, expected, `${where} ${path}`);
  assert.equal(
    typeof actual,
    'object',
    `${where} ${path}: expected an object or array, got ${JSON.stringify(actual)}`,
  );
  if (Array.isArray(expected)) {
    assert.ok(
      Array.isArray(actual) && actual.length === expected.length,
      `${where} ${path}: expected ${expected.length} items, got ${JSON.stringify(actual)}`,
    );
    expected.forEach((item, i) => match(item, (actual as unknown[])[i], captures, where, `${path}[${i}]`));
    return;
  }
  const record = actual as Record<string, unknown>;
  const keys = Object.keys(expected);
  for (const key of keys) {
    const want = (expected as Record<string, unknown>)[key];
    if (want === '<absent>') assert.ok(!(key in record), `${where} ${path}.${key}: must be absent`);
    else match(want, record[key], captures, where, `${path}.${key}`);
  }
  const extra = Object.keys(record).filter((key) => !keys.includes(key));
  assert.deepEqual(extra, [], `${where} ${path}: unexpected keys in ${JSON.stringify(actual)}`);
}
