// How a Client is set up, and the options of its auto-paginating helpers.

import type { RequestOptions } from '../protocol/session.ts';
import type { ClientCapabilities, Root } from '../protocol/types/index.ts';
import type { JsonSchemaValidator } from '../validation/index.ts';
import type { ElicitationMode } from './client-capabilities.ts';
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
  /** Request exactly this handshake-era revision and accept no other; default: the latest, accepting any supported. */
  protocolVersion?: string;
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
