// How a Client is set up, and the options of its auto-paginating helpers.

import type { RequestOptions } from '../protocol/session.ts';
import type { ClientCapabilities, Root } from '../protocol/types/index.ts';
import type { JsonSchemaValidator } from '../validation/index.ts';
import type { ElicitationMode } from './client-capabilities.ts';
import type { EraCache } from './era-probe.ts';
import type { EraChoice } from './establish.ts';
import type { ClientHandlers } from './server-requests.ts';

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
   * handshake; `legacy` goes straight to `initialize`; `modern` refuses a handshake-era server.
   */
  era?: EraChoice;
  /** How long the era probe waits before taking silence as a handshake-era server; default 5,000 ms. */
  probeTimeoutMs?: number;
  /** Where era verdicts are remembered per server configuration; default process-wide; `false` for none. */
  eraCache?: EraCache | false;
  /** Stateless era: rounds of input a request may take before it fails (S26-MRTR-6); default 10. */
  maxInputRounds?: number;
  /** Default timeout of every request (RequestOptions.timeoutMs overrides it); default 60,000 ms. */
  requestTimeoutMs?: number;
  /** JSON Schema validator for tool output; default Ajv. */
  validator?: JsonSchemaValidator;
  /** Local diagnostics: handler crashes, listener errors, bad input. Default: stderr. */
  onError?: (error: Error) => void;
}

/** Options of the auto-paginating helpers. */
export interface ListAllOptions extends RequestOptions {
  /** Stop with PaginationLimitError after this many pages; default 1000. */
  maxPages?: number;
}
