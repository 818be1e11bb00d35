// The handshake era's two connection-scoped answers, shared by a session (server-session.ts) and by a
// request served without one (serve.ts): `initialize` (which revision, which capabilities) and
// the check of `logging/setLevel`.

import type { JsonObject } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import { HANDSHAKE_VERSIONS } from '../protocol/revisions.ts';
import type {
  Implementation,
  InitializeRequestParams,
  InitializeResult,
  LoggingLevel,
  SetLevelRequestParams,
} from '../protocol/types/index.ts';
import { isLoggingLevel } from './logging.ts';

/** What answering `initialize` needs of the server definition. */
export interface HandshakeHost {
  readonly info: Implementation;
  readonly options: { readonly instructions?: string };
  capabilities(): object;
  /** The capabilities declared to a client of `version`; default `capabilities()`. */
  capabilitiesAt?(version: string): object;
}

/** An answered `initialize`: the revision chosen, the capabilities declared, and the result. */
export interface Handshake {
  version: string;
  capabilities: JsonObject;
  result: InitializeResult;
}

/** LIFE-8: echo a revision we serve, otherwise answer our latest and let the client decide. */
export function answerInitialize(host: HandshakeHost, params: InitializeRequestParams): Handshake {
  // Checked again here: the row's shape says a string, the format is this function's to check.
  const requested: string = params.protocolVersion;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(requested)) {
    throw new RpcError(ErrorCode.InvalidParams, 'Unsupported protocol version', {
      supported: [...HANDSHAKE_VERSIONS],
      requested,
    });
  }
  const version = (HANDSHAKE_VERSIONS as readonly string[]).includes(requested)
    ? requested
    : HANDSHAKE_VERSIONS[0];
  const capabilities = (host.capabilitiesAt?.(version) ?? host.capabilities()) as JsonObject;
  const result: InitializeResult = { protocolVersion: version, capabilities, serverInfo: host.info };
  if (host.options.instructions !== undefined) result.instructions = host.options.instructions;
  return { version, capabilities, result };
}

/** The level a `logging/setLevel` names; -32602 for one that is not a level. */
export function requestedLevel(params: SetLevelRequestParams): LoggingLevel {
  if (!isLoggingLevel(params.level)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params for "logging/setLevel": unknown level ${JSON.stringify(params.level)}`,
    );
  }
  return params.level;
}
