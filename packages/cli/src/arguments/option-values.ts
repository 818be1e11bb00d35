// Parsers for option values the commands share (ports, counts, durations, the auth mode), so that
// every command accepts and refuses the same spellings with the same words.

import { InvalidArgumentError } from 'commander';

/** A TCP port, 0 (any free port) to 65535. */
export function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 0 && port <= 65_535))
    throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  return port;
}

/** A whole number of at least 1 (up to 9 digits). */
export function parseCount(value: string): number {
  const count = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(count >= 1)) throw new InvalidArgumentError('expected a whole number of at least 1.');
  return count;
}

/** A duration in seconds above 0, whole or with up to three decimals (`600`, `0.5`). */
export function parseSeconds(value: string): number {
  const seconds = /^\d{1,9}(\.\d{1,3})?$/.test(value) ? Number(value) : NaN;
  if (!(seconds > 0))
    throw new InvalidArgumentError('expected a number of seconds above 0, e.g. 600 or 0.5.');
  return seconds;
}

/** A whole number of milliseconds, 0 or more (up to 9 digits). */
export function parseMilliseconds(value: string): number {
  if (!/^\d{1,9}$/.test(value))
    throw new InvalidArgumentError('expected a whole number of milliseconds, 0 or more.');
  return Number(value);
}

/** `--auth`'s one mode today: `dev`, the development authorization server. */
export function parseAuthMode(value: string): 'dev' {
  if (value !== 'dev')
    throw new InvalidArgumentError('expected "dev" (the development authorization server).');
  return value;
}

/** A whole number of seconds, 1 or more (for values sent on as integers, e.g. a token's `expires_in`). */
export function parseWholeSeconds(value: string): number {
  const seconds = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(seconds >= 1)) throw new InvalidArgumentError('expected a whole number of seconds, 1 or more.');
  return seconds;
}
