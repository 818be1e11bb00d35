// Headless Chromium driven over the DevTools protocol (`--remote-debugging-pipe`: NUL-terminated JSON on
// fds 3 and 4), for tests that must act while a page runs: answer a page's calls from Node, wait for a
// state inside a frame, click. One browser per instance, a fresh profile, everything gone on dispose.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.ts';

/** support/chromium.ts's flags (no background networking, no sandbox as root), over a DevTools pipe. */
const FLAGS = [...CHROMIUM_FLAGS, '--remote-debugging-pipe'];

/** A DevTools command that failed: the protocol's own error, with the method named. */
export class CdpError extends Error {
  readonly code = 'CDP_ERROR';
}

type Listener = (params: Record<string, unknown>, sessionId: string | undefined) => void;

/** One Chromium process and its DevTools pipe. Commands resolve in any order; events fan out to listeners. */
export class CdpBrowser implements AsyncDisposable {
  readonly #child: ChildProcess;
  readonly #profile: string;
  readonly #pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  readonly #listeners = new Map<string, Set<Listener>>();
  #nextId = 1;
  #buffer = '';
  #output = '';
  #exited: Promise<void>;

  private constructor(child: ChildProcess, profile: string) {
    this.#child = child;
    this.#profile = profile;
    const fromBrowser = child.stdio[4] as Readable;
    fromBrowser.setEncoding('utf8').on('data', (chunk: string) => this.#handleData(chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.#output = (this.#output + chunk).slice(-8000);
    });
    this.#exited = new Promise((resolve) => child.once('close', () => resolve()));
    void this.#exited.then(() => {
      for (const waiting of this.#pending.values())
        waiting.reject(new CdpError(`chromium exited:\n${this.#output.slice(-4000)}`));
      this.#pending.clear();
    });
  }

  /** Starts headless Chromium with `flags` added; resolves once its DevTools pipe answers. */
  static async launch(flags: readonly string[] = []): Promise<CdpBrowser> {
    const profile = await mkdtemp(join(tmpdir(), 'mcpwire-cdp-'));
    const child = spawn(CHROMIUM_PATH, [...FLAGS, ...flags, `--user-data-dir=${profile}`, 'about:blank'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const browser = new CdpBrowser(child, profile);
    try {
      await browser.send('Browser.getVersion');
    } catch (error) {
      await browser[Symbol.asyncDispose]();
      throw error;
    }
    return browser;
  }

  /** Sends one command (to a target's session when `sessionId` is given); rejects with CdpError. */
  send(method: string, params: object = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    const message = { id, method, params, ...(sessionId === undefined ? {} : { sessionId }) };
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      (this.#child.stdio[3] as Writable).write(`${JSON.stringify(message)}\0`);
    });
  }

  /** Calls `listener` for each `method` event from any session; returns the unsubscribe. */
  on(method: string, listener: Listener): () => void {
    const set = this.#listeners.get(method) ?? new Set();
    this.#listeners.set(method, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  /** The browser's stderr tail, for assertion messages. */
  get output(): string {
    return this.#output;
  }

  #handleData(chunk: string): void {
    this.#buffer += chunk;
    for (let end = this.#buffer.indexOf('\0'); end !== -1; end = this.#buffer.indexOf('\0')) {
      const message = JSON.parse(this.#buffer.slice(0, end)) as {
        id?: number;
        method?: string;
        params?: Record<string, unknown>;
        result?: Record<string, unknown>;
        error?: { message: string };
        sessionId?: string;
      };
      this.#buffer = this.#buffer.slice(end + 1);
      if (message.id !== undefined) {
        const waiting = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.error) waiting?.reject(new CdpError(message.error.message));
        else waiting?.resolve(message.result ?? {});
      } else if (message.method !== undefined) {
        for (const listener of this.#listeners.get(message.method) ?? [])
          listener(message.params ?? {}, message.sessionId);
      }
    }
  }

  /** Closes the browser (killing its process group if it does not go) and removes the profile. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) {
      this.send('Browser.close').catch(() => undefined);
      const killed = setTimeout(() => {
        if (this.#child.pid !== undefined) process.kill(-this.#child.pid, 'SIGKILL');
      }, 10_000);
      await this.#exited;
      clearTimeout(killed);
    }
    await rm(this.#profile, { recursive: true, force: true });
  }
}
