// The web-standard globals the pure layers (jsonrpc/, protocol/) may use, declared for
// tsconfig.pure.json, which has no Node or DOM types: a Node global there (process, Buffer, ...)
// is a type error. Every runtime mcpwire targets provides these (WHATWG DOM and HTML timers).

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

declare var AbortSignal: {
  prototype: AbortSignal;
  abort(reason?: unknown): AbortSignal;
  timeout(milliseconds: number): AbortSignal;
  any(signals: Iterable<AbortSignal>): AbortSignal;
};

interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

declare var AbortController: {
  prototype: AbortController;
  new (): AbortController;
};

/** What a timer function returns: an opaque handle (a number on the web, an object in Node). */
type TimerHandle = unknown;

declare function setTimeout(callback: () => void, milliseconds?: number): TimerHandle;
declare function clearTimeout(handle: TimerHandle | undefined): void;
