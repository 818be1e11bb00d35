// Logging: levels, `logging/setLevel` and `notifications/message`.

import type { NotificationParams, RequestParams } from './base.ts';

/** Syslog severities (RFC 5424), from `debug` (lowest) to `emergency` (highest). */
export type LoggingLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Params of `logging/setLevel` (removed in 2026-07-28, where the level rides in each request's `_meta`). */
export interface SetLevelRequestParams extends RequestParams {
  level: LoggingLevel;
}

/** Params of `notifications/message`. */
export interface LoggingMessageNotificationParams extends NotificationParams {
  level: LoggingLevel;
  logger?: string;
  /** Any JSON-serializable value. */
  data: unknown;
}
