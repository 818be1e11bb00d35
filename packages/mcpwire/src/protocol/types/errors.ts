// MCP's own error codes (the JSON-RPC standard ones are `ErrorCode` in jsonrpc/rpc-error.ts).

import { StatelessErrorCode } from './stateless.ts';

/** Error codes MCP gives meaning to, across revisions. */
export const McpErrorCode = {
  /**
   * Resource not found (`data: { uri }`), in every handshake-era revision. 2026-07-28 uses -32602 instead and
   * forbids emitting -32002, but clients should still accept it.
   */
  ResourceNotFound: -32002,
  /** URLElicitationRequiredError: `data` is `URLElicitationRequiredErrorData`. 2025-11-25 only. */
  UrlElicitationRequired: -32042,
  /** The user rejected a sampling request (a code the sampling docs give, with no schema constant). */
  UserRejected: -1,
  ...StatelessErrorCode,
} as const;
