// Handshake, cancellation and progress: the lifecycle messages of the handshake-era revisions.

import type {
  Implementation,
  NotificationParams,
  ProgressToken,
  RequestId,
  RequestParams,
  Result,
} from './base.ts';
import type { ClientCapabilities, ServerCapabilities } from './capabilities.ts';

/** Params of `initialize`: the client's newest supported revision, its capabilities and identity. */
export interface InitializeRequestParams extends RequestParams {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
}

/** Result of `initialize`: the revision the server chose (the client disconnects if it cannot speak it). */
export interface InitializeResult extends Result {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  /** How to use the server; a client may add it to a model's system prompt. */
  instructions?: string;
}

/**
 * Params of `notifications/cancelled`. `requestId` is required before 2025-11-25 and again in 2026-07-28;
 * 2025-11-25 made it optional because tasks are cancelled with `tasks/cancel`. Always send it for ordinary requests.
 */
export interface CancelledNotificationParams extends NotificationParams {
  requestId?: RequestId;
  reason?: string;
}

/** Params of `notifications/progress`; `progress` increases with every notification, even when `total` is unknown. */
export interface ProgressNotificationParams extends NotificationParams {
  progressToken: ProgressToken;
  progress: number;
  total?: number;
  /** Since 2025-03-26. */
  message?: string;
}
