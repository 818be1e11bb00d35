// A host page on ext-apps' official AppBridge (test/fixtures/app-bridge-host.mjs, bundled with esbuild
// into one self-contained file) open in a CdpBrowser: what the page and the view it frames report, a way
// to wait for a state inside the view, to read it and to click in it, and the view's tools/call answered
// by a function of Node's.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { CdpBrowser } from './cdp.ts';

const ENTRY = join(import.meta.dirname, '..', 'fixtures', 'app-bridge-host.mjs');
/** Waits on the page's own pace; generous for 2 shared cores, never asserted on. */
const WAIT_MS = 240_000;

/** One report of the host page (see app-bridge-host.mjs): `wire`, `initialized`, `size`, `tools/call`, ... */
export interface HostEvent {
  type: string;
  [key: string]: unknown;
}

/** Something a page or the view logged at warning level or above, or threw. */
export interface ConsoleProblem {
  where: 'host' | 'view';
  text: string;
}

/** What `startHost` takes: the view's HTML (CSP in place), its permissions, the host's info and context. */
export interface HostConfig {
  html: string;
  /** The view's `_meta.ui.permissions`: the iframe's `allow` attribute is built from them. */
  permissions?: object;
  hostInfo: { name: string; version: string };
  hostContext: Record<string, unknown>;
  input: Record<string, unknown>;
  result?: unknown;
  /** Send `ui/notifications/tool-cancelled` with this reason instead of the result. */
  cancelled?: string;
}

/** Writes `dir/host.html`: the bundled host script inline, nothing to fetch. Returns its path. */
export async function writeHostPage(dir: string): Promise<string> {
  const bundle = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script');
  const page = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0}iframe{border:0;width:100%;display:block}</style></head><body><script>${script}</script></body></html>`;
  const file = join(dir, 'host.html');
  await writeFile(file, page);
  return file;
}

/** Reports in arrival order; `waitFor` resolves with the first match, past or future. */
export class Reports<T> {
  readonly items: T[] = [];
  readonly #waiters = new Set<(item: T) => boolean>();

  /** Records one item and wakes the waiters it satisfies. */
  push(item: T): void {
    this.items.push(item);
    for (const waiter of [...this.#waiters]) if (waiter(item)) this.#waiters.delete(waiter);
  }

  /** The first item `matches` accepts; rejects after `timeoutMs` naming `what` and what came instead. */
  waitFor(what: string, matches: (item: T) => boolean, timeoutMs = WAIT_MS): Promise<T> {
    const found = this.items.find(matches);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(`waited for ${what}; received instead: ${JSON.stringify(this.items).slice(-4000)}`));
      }, timeoutMs);
      const waiter = (item: T) => {
        if (!matches(item)) return false;
        clearTimeout(timer);
        resolve(item);
        return true;
      };
      this.#waiters.add(waiter);
    });
  }
}

/** The host page in one tab. Create with {@link BridgeHostPage.open}; the browser's dispose ends it. */
export class BridgeHostPage {
  readonly events = new Reports<HostEvent>();
  readonly problems: ConsoleProblem[] = [];
  /** Every URL either frame asked the network stack for. */
  readonly requests: string[] = [];
  readonly #browser: CdpBrowser;
  readonly #session: string;
  /** The view's sessions once running, newest last (a process change attaches the frame again). */
  readonly #runningViewSessions = new Reports<string>();
  /** Every session of the view's frame, from its attach (held, not yet running) on. */
  readonly #viewSessions = new Set<string>();

  private constructor(browser: CdpBrowser, session: string) {
    this.#browser = browser;
    this.#session = session;
  }

  /**
   * Opens `file` in a new tab, starts the host with `config` and resolves once the view is given its document.
   * Each tools/call of the view is answered with what `answer` resolves to (a rejection: an error).
   */
  static async open(
    browser: CdpBrowser,
    file: string,
    config: HostConfig,
    answer: (params: Record<string, unknown>) => Promise<unknown>,
  ): Promise<BridgeHostPage> {
    const { targetId } = (await browser.send('Target.createTarget', { url: 'about:blank' })) as {
      targetId: string;
    };
    const { sessionId } = (await browser.send('Target.attachToTarget', { targetId, flatten: true })) as {
      sessionId: string;
    };
    const page = new BridgeHostPage(browser, sessionId);
    page.#listen(answer);
    await page.#instrument(sessionId);
    // The sandboxed view runs in its own process (an out-of-process iframe): held until instrumented.
    await browser.send(
      'Target.setAutoAttach',
      { autoAttach: true, waitForDebuggerOnStart: true, flatten: true },
      sessionId,
    );
    await browser.send('Runtime.addBinding', { name: 'mcpwireHost' }, sessionId);
    const loaded = new Promise<void>((resolve) => {
      const off = browser.on('Page.loadEventFired', (_params, session) => {
        if (session !== sessionId) return;
        off();
        resolve();
      });
    });
    await browser.send('Page.navigate', { url: pathToFileURL(file).href }, sessionId);
    await loaded;
    await page.#evaluate(sessionId, `startHost(${JSON.stringify(config)})`);
    return page;
  }

  /**
   * Resolves once `predicate` (a JS expression) is true in the view, checked on every DOM change.
   * Rejects after a generous wait, with the view's state and status line then, for the failure message.
   */
  async waitInView(predicate: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const now = `({ state: document.body.dataset.state, status: document.getElementById('status')?.textContent })`;
        this.evaluateInView(now).then(
          (state) => reject(new Error(`the view never reached ${predicate}: ${JSON.stringify(state)}`)),
          reject,
        );
      }, WAIT_MS);
    });
    const reached = this.evaluateInView(`new Promise((resolve) => {
      const observer = new MutationObserver(() => { if (${predicate}) { observer.disconnect(); resolve(true); } });
      if (${predicate}) resolve(true);
      else observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    })`);
    try {
      await Promise.race([reached, stuck]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The value (JSON) of `expression` in the view's document. */
  async evaluateInView(expression: string): Promise<unknown> {
    await this.#runningViewSessions.waitFor('the view frame', () => true, WAIT_MS);
    // The newest: a navigation that changes the frame's process attaches it again.
    return this.#evaluate(this.#runningViewSessions.items.at(-1)!, expression);
  }

  /** The value (JSON) of `expression` in the host page. */
  evaluateInHost(expression: string): Promise<unknown> {
    return this.#evaluate(this.#session, expression);
  }

  /** A real left click (mouse pressed and released) at the middle of the view's element `selector`. */
  async clickInView(selector: string): Promise<void> {
    const box = (await this.evaluateInView(
      `(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`,
    )) as { x: number; y: number };
    const frame = (await this.evaluateInHost(
      `(() => { const r = document.getElementById('view').getBoundingClientRect(); return { x: r.x, y: r.y }; })()`,
    )) as { x: number; y: number };
    const at = { x: frame.x + box.x, y: frame.y + box.y };
    for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'])
      await this.#browser.send(
        'Input.dispatchMouseEvent',
        {
          type,
          ...at,
          button: type === 'mouseMoved' ? 'none' : 'left',
          clickCount: type === 'mouseMoved' ? 0 : 1,
        },
        this.#session,
      );
  }

  async #evaluate(session: string, expression: string): Promise<unknown> {
    const reply = (await this.#browser.send(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true },
      session,
    )) as {
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    };
    if (reply.exceptionDetails)
      throw new Error(
        `${expression.slice(0, 80)}: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`,
      );
    return reply.result.value;
  }

  /** Console, log and network instrumentation of one session (the page's, or the view's while it is held). */
  async #instrument(session: string): Promise<void> {
    for (const domain of ['Runtime', 'Log', 'Network', 'Page'])
      await this.#browser.send(`${domain}.enable`, {}, session);
  }

  #listen(answer: (params: Record<string, unknown>) => Promise<unknown>): void {
    const browser = this.#browser;
    const where = (session: string | undefined) => (session === this.#session ? 'host' : 'view');
    // Another page of the same browser reports through the same pipe: only this tab and its view count.
    const isOurs = (session: string | undefined) =>
      session === this.#session || (session !== undefined && this.#viewSessions.has(session));
    browser.on('Target.attachedToTarget', (params, parent) => {
      const info = params.targetInfo as { type: string };
      const session = params.sessionId as string;
      if (parent !== this.#session || info.type !== 'iframe') return;
      this.#viewSessions.add(session);
      void this.#instrument(session)
        .then(() => browser.send('Runtime.runIfWaitingForDebugger', {}, session))
        .then(() => this.#runningViewSessions.push(session));
    });
    browser.on('Runtime.bindingCalled', (params, session) => {
      if (session !== this.#session || params.name !== 'mcpwireHost') return;
      const event = JSON.parse(params.payload as string) as HostEvent;
      this.events.push(event);
      if (event.type !== 'tools/call') return;
      const reply = (value: object) =>
        void this.#evaluate(
          this.#session,
          `mcpwireAnswer(${JSON.stringify(event.id)}, ${JSON.stringify(value)})`,
        );
      answer(event.params as Record<string, unknown>).then(
        (result) => reply({ result }),
        (error: Error) => reply({ error: { message: error.message } }),
      );
    });
    browser.on('Runtime.consoleAPICalled', (params, session) => {
      if (!isOurs(session) || !['warning', 'error', 'assert'].includes(params.type as string)) return;
      const args = params.args as Array<{ value?: unknown; description?: string }>;
      this.problems.push({
        where: where(session),
        text: args.map((arg) => String(arg.value ?? arg.description)).join(' '),
      });
    });
    browser.on('Runtime.exceptionThrown', (params, session) => {
      if (!isOurs(session)) return;
      const details = params.exceptionDetails as { text: string; exception?: { description?: string } };
      this.problems.push({ where: where(session), text: details.exception?.description ?? details.text });
    });
    browser.on('Log.entryAdded', (params, session) => {
      const entry = params.entry as { level: string; text: string; source: string };
      if (isOurs(session) && (entry.level === 'error' || entry.level === 'warning'))
        this.problems.push({ where: where(session), text: `${entry.source}: ${entry.text}` });
    });
    browser.on('Network.requestWillBeSent', (params, session) => {
      if (isOurs(session)) this.requests.push((params.request as { url: string }).url);
    });
  }
}
