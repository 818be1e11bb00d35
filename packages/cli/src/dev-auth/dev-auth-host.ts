// The development authorization server approves whoever its consent page names, so reaching it means
// minting tokens: `serve --auth dev` and `auth-server` listen beyond loopback only when told to.

import { UsageError } from '../exit-code.ts';

/** The flag that lets the development authorization server listen on a non-loopback interface. */
export const INSECURE_NETWORK_FLAG = '--insecure-dev-auth-on-network';

/** Its help text. */
export const INSECURE_NETWORK_HELP =
  'let the development authorization server listen on a non-loopback --host, where anyone who can reach it can approve themselves a token';

/** True for `localhost` and the loopback addresses 127.0.0.0/8 and ::1, the only hosts served by default. */
export function isLoopbackListenHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/**
 * Throws UsageError (exit 2) when `host` is not loopback and the flag was not given; `what` names the
 * command for the message.
 */
export function checkDevAuthHost(host: string, isOnNetworkAllowed: boolean, what: string): void {
  if (isOnNetworkAllowed || isLoopbackListenHost(host)) return;
  throw new UsageError(
    `${what} on --host ${host} would let anyone who can reach it approve themselves a token (the development authorization server has no login); ` +
      `keep --host 127.0.0.1 (the default), or pass ${INSECURE_NETWORK_FLAG} if that is what you want`,
  );
}
