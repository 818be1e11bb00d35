// The client half of the handshake: initialize, version check, notifications/initialized (LIFE-2..LIFE-9).

import type { JsonObject } from '../jsonrpc/message.ts';
import type { Session } from '../protocol/session.ts';
import type { ClientCapabilities, Implementation, InitializeResult } from '../protocol/types/index.ts';
import { InvalidResultError, UnsupportedProtocolVersionError } from './errors.ts';

/** What the client brings to the handshake. */
export interface NegotiateOptions {
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  /** The revision to request: the client's latest, or the pinned one (LIFE-7). */
  protocolVersion: string;
  /** The revisions the client accepts in the answer. */
  supportedVersions: readonly string[];
  /** Sends `initialize` (through the client's middleware) and resolves with the raw result. */
  sendInitialize(params: JsonObject): Promise<JsonObject>;
}

/**
 * Runs the handshake on a started, new session and leaves it operating: sends `initialize`, checks
 * the answer, records the negotiated revision and both capability sets on the session, then sends
 * `notifications/initialized` (LIFE-4). Rejects with UnsupportedProtocolVersionError (LIFE-9) or
 * InvalidResultError for an unusable answer, or with the request's own failure; the caller closes
 * the session on any rejection.
 */
export async function negotiate(session: Session, options: NegotiateOptions): Promise<InitializeResult> {
  session.ownCapabilities = options.capabilities as JsonObject;
  const params: JsonObject = {
    protocolVersion: options.protocolVersion,
    capabilities: options.capabilities,
    clientInfo: options.clientInfo,
  };
  const result = parseInitializeResult(await options.sendInitialize(params), options);
  session.protocolVersion = result.protocolVersion;
  session.peerCapabilities = result.capabilities as JsonObject;
  // Operating before `initialized` goes out: the server may send requests as soon as it has it (LIFE-6).
  session.setState('operating');
  await session.notify('notifications/initialized');
  return result;
}

/** Checks an initialize result: a supported revision, a capabilities object, a serverInfo object. */
function parseInitializeResult(result: JsonObject, options: NegotiateOptions): InitializeResult {
  const version = result.protocolVersion;
  if (typeof version !== 'string' || !options.supportedVersions.includes(version)) {
    throw new UnsupportedProtocolVersionError(options.protocolVersion, version, options.supportedVersions);
  }
  if (!isObject(result.capabilities))
    throw new InvalidResultError('initialize', 'expected "capabilities" to be an object');
  if (!isObject(result.serverInfo) || typeof result.serverInfo.name !== 'string') {
    throw new InvalidResultError('initialize', 'expected "serverInfo" to be an object with a string "name"');
  }
  if (result.instructions !== undefined && typeof result.instructions !== 'string') {
    throw new InvalidResultError('initialize', 'expected "instructions" to be a string or absent');
  }
  return result as unknown as InitializeResult;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
