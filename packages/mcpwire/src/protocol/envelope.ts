// The stateless era's per-request envelope (S26-META-2/3, S26-VER-2): recognising a claim and
// reading it, with the exact error for each way it can be wrong.

import type { JsonObject } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import { STATELESS_VERSIONS } from './revisions.ts';
import { MetaKey, StatelessErrorCode, type ClientCapabilities, type Implementation } from './types/index.ts';

/** What a valid envelope says. */
export interface Envelope {
  version: string;
  capabilities: ClientCapabilities;
  clientInfo?: Implementation;
  meta: JsonObject;
}

/** True if the request claims the stateless era (`_meta` names a protocol version). */
export function isStatelessClaim(params: JsonObject | undefined): boolean {
  const meta = params?._meta;
  return typeof meta === 'object' && meta !== null && MetaKey.protocolVersion in meta;
}

/** Reads and checks the envelope; throws the exact error (-32602 missing keys, -32022 version). */
export function readEnvelope(params: JsonObject | undefined): Envelope {
  const meta = params?._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: missing _meta with "${MetaKey.protocolVersion}" and "${MetaKey.clientCapabilities}"`,
    );
  }
  const record = meta as JsonObject;
  const version = record[MetaKey.protocolVersion];
  const capabilities = record[MetaKey.clientCapabilities];
  if (version === undefined || capabilities === undefined) {
    const missing = [MetaKey.protocolVersion, MetaKey.clientCapabilities].filter(
      (key) => record[key] === undefined,
    );
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: _meta is missing ${missing.map((k) => `"${k}"`).join(' and ')}`,
    );
  }
  if (typeof version !== 'string')
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: "${MetaKey.protocolVersion}" must be a string`,
    );
  if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: "${MetaKey.clientCapabilities}" must be an object`,
    );
  }
  if (!(STATELESS_VERSIONS as readonly string[]).includes(version)) {
    throw new RpcError(
      StatelessErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version "${version}"`,
      { supported: [...STATELESS_VERSIONS], requested: version },
    );
  }
  const clientInfo = record[MetaKey.clientInfo] as Implementation | undefined;
  const caps = capabilities as ClientCapabilities;
  return clientInfo === undefined
    ? { version, capabilities: caps, meta: record }
    : { version, capabilities: caps, clientInfo, meta: record };
}

/**
 * The error a 2026-07-28-only server answers `initialize` with, on any transport: -32022 naming the
 * versions it serves (S26-VER-2; S26-VER-5: a handshake-era client's user may see only this message).
 */
export function initializeRefusal(requested: unknown): RpcError {
  const version = typeof requested === 'string' ? requested : '';
  return new RpcError(
    StatelessErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version "${version}": this server speaks only ${STATELESS_VERSIONS.join(', ')}, without initialize`,
    { supported: [...STATELESS_VERSIONS], requested: version },
  );
}
