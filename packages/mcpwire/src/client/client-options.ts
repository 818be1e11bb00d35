// How a Client is set up (with the default timeouts of connect's steps), and the options of its
// auto-paginating helpers.

import type { RequestOptions } from '../protocol/session.ts';
import type { ClientCapabilities, Root } from '../protocol/types/index.ts';
import type { JsonSchemaValidator } from '../validation/index.ts';
import type { ElicitationMode } from './client-capabilities.ts';
import type { ClientExtension } from './extension.ts';
import type { EraCache } from './era-probe.ts';
import type { EraChoice } from './establish.ts';
import type { ClientHandlers } from './server-requests.ts';

/**
 * How long the era probe waits for `server/discover` by default, in ms. It includes the server's
 * start: Node servers answer in 0.1-0.7 s, up to 1.7 s on a loaded two-core machine, so 4 s leaves
 * room; silence then means a handshake-era server that ignores requests before `initialize`.
 */
export const DEFAULT_PROBE_TIMEOUT_MS = 4000;

/**
 * How long `initialize` waits for its answer by default, in ms (it includes the server's start
 * when no probe ran): with the probe, a server that never answers fails `connect` within 10 s,
 * plus the shutdown of its process.
 */
export const DEFAULT_INITIALIZE_TIMEOUT_MS = 6000;

/** How a client is set up. */
export interface ClientOptions {
  /** Extra capabilities to declare (e.g. `sampling: { tools: {} }` if the app supports tool use in sampling). */
  capabilities?: ClientCapabilities;
  /** Answers to server requests; each one given is declared as a capability. */
  handlers?: ClientHandlers;
  /** Elicitation modes to declare with an elicitation handler; default both form and url. */
  elicitationModes?: readonly ElicitationMode[];
  /** Roots to serve without a roots handler (declares `roots`); change them with `setRoots`. */
  roots?: readonly Root[];
  /**
   * Speak exactly this revision and accept no other (a handshake-era one, or 2026-07-28); default:
   * find out (see `era`), then the latest mutual revision.
   */
  protocolVersion?: string;
  /**
   * Which era to speak: `auto` (default) probes with `server/discover` and falls back to the
   * handshake; `handshake` goes straight to `initialize`; `stateless` refuses a handshake-era server.
   */
  era?: EraChoice;
  /**
   * How long the era probe (`server/discover`) waits before taking silence as a handshake-era
   * server (over Streamable HTTP silence fails with ConnectTimeoutError); default 4,000 ms. With
   * era `stateless`, discover is the first request rather than a probe, and waits as long as
   * `initialize` would unless this is set.
   */
  probeTimeoutMs?: number;
  /**
   * How long `initialize` (with era `stateless`: `server/discover`) waits for its answer before
   * `connect` fails with ConnectTimeoutError; default `requestTimeoutMs` when set, else 6,000 ms.
   */
  initializeTimeoutMs?: number;
  /** Where era verdicts are remembered per server configuration; default process-wide; `false` for none. */
  eraCache?: EraCache | false;
  /** Stateless era: rounds of input a request may take before it fails (S26-MRTR-6); default 10. */
  maxInputRounds?: number;
  /**
   * Default timeout of every request (RequestOptions.timeoutMs overrides it), `initialize` included
   * unless `initializeTimeoutMs` is set; default 60,000 ms (for `initialize`, 6,000 ms).
   */
  requestTimeoutMs?: number;
  /**
   * JSON Schema validator for tool output; default Ajv, or `createCfWorkerValidator()` where code generation
   * is forbidden and in bundles for edge runtimes (see `ServerOptions.validator`).
   */
  validator?: JsonSchemaValidator;
  /** Local diagnostics: handler crashes, listener errors, bad input. Default: stderr. */
  onError?: (error: Error) => void;
  /**
   * Extensions this client supports (S26-EXT; none unless listed): declared under
   * `capabilities.extensions`, their methods known to the client's method table.
   */
  extensions?: readonly ClientExtension[];
}

/** Options of the auto-paginating helpers. */
export interface ListAllOptions extends RequestOptions {
  /** Stop with PaginationLimitError after this many pages; default 1000. */
  maxPages?: number;
}
