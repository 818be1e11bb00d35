// Logging levels (LOG-*): the syslog order and the filter a client's chosen level applies.

import type { LoggingLevel } from '../protocol/types/index.ts';

/** Levels from least to most severe (RFC 5424 order). */
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** True if `value` is one of the eight levels. */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && (LOGGING_LEVELS as readonly string[]).includes(value);
}

/** True if a message at `level` passes `threshold`; with no threshold set, everything passes. */
export function isLevelEnabled(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  if (threshold === undefined) return true;
  return LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(threshold);
}
