// The OAuth client of the client commands: mcpwire/auth's `createOAuthAuthorization` (or, when every
// request must go through a fetch, `createOAuthFetch`) with the browser flow
// (the URL printed on stderr, opened where a browser is, the answer taken on a loopback listener) and
// a file token store per server, so a later run reuses the token without a new consent.

import {
  createMemoryTokenStore,
  createOAuthAuthorization,
  createOAuthFetch,
  isPrivateHost,
  type FetchLike,
  type OAuthAuthorization,
  type OAuthClientOptions,
  type TokenStore,
} from 'mcpwire/auth';
import { createAddressCheckedFetch, createFileTokenStore } from 'mcpwire/auth/node';
import { PACKAGE_VERSION } from '../package-info.ts';
import { canOpenBrowser, openBrowser } from './browser.ts';
import { LoopbackRedirect } from './loopback-redirect.ts';
import { tokenStorePath } from './token-store-path.ts';
import { toTerminalText } from '../terminal/terminal-text.ts';

/** The auth options of a client command (see auth-options.ts). */
export interface CliAuthOptions {
  /** `--client-id`: a client registered out of band, used instead of registering. */
  clientId?: string;
  /** `--client-secret`, with --client-id. */
  clientSecret?: string;
  /** `--scope`: the scope to request instead of the one the server's challenge and metadata suggest. */
  scope?: string;
  /** `--token-store <file>`; default {@link tokenStorePath} of the server URL. */
  tokenStore?: string;
  /** Keep nothing between runs (memory only) unless `tokenStore` names a file: the doctor walks the whole flow. */
  isStoreless?: boolean;
  /** `--auth-timeout`: how long to wait for the browser, in seconds. */
  authTimeout: number;
  /** `--allow-private-auth`: metadata and endpoints on private addresses even for a public server. */
  allowPrivateAuth?: boolean;
  /** Told the authorization URL before it is printed, and the redirect once it came (the doctor's steps). */
  onAuthorization?: (event: { url: string } | { redirect: URL }) => void;
}

/**
 * Whether metadata and endpoints may be on loopback and private addresses: when the server itself is
 * on one (the user chose a local server), or with --allow-private-auth.
 */
export function isPrivateAuthAllowed(
  serverUrl: string,
  options: Pick<CliAuthOptions, 'allowPrivateAuth'>,
): boolean {
  return options.allowPrivateAuth === true || isPrivateHost(new URL(serverUrl).hostname);
}

/**
 * The fetch under the OAuth client of `serverUrl`: the global one where private addresses are allowed
 * (see {@link isPrivateAuthAllowed}); else one that connects to the server's own origin as it is and
 * to any other only at a public address, checked as each connection is resolved (DNS rebinding).
 */
export function authBaseFetch(
  serverUrl: string,
  options: Pick<CliAuthOptions, 'allowPrivateAuth'>,
): FetchLike {
  if (isPrivateAuthAllowed(serverUrl, options)) return (request) => fetch(request);
  return createAddressCheckedFetch({ trustedOrigins: [new URL(serverUrl).origin] });
}

/**
 * The token store file shared by every mcpwire process on this server (20 bridges started at once
 * included): its lock serializes their OAuth flows, so they register and log in once. A process waits
 * for another's browser step (the holder's --auth-timeout and a margin), then takes over the lock of a
 * holder that is dead or older than that.
 */
function fileStore(
  storePath: string,
  serverUrl: string,
  options: Pick<CliAuthOptions, 'authTimeout'>,
  write: (text: string) => void,
): TokenStore {
  const staleAfterMs = (options.authTimeout + LOCK_MARGIN_SECONDS) * 1000;
  return createFileTokenStore(storePath, {
    lockStaleAfterMs: staleAfterMs,
    lockWaitMs: staleAfterMs + LOCK_MARGIN_SECONDS * 1000,
    onLockWait: (holder, lockPath) =>
      write(
        toTerminalText(
          `mcpwire: waiting for process ${holder.pid}, which is authorizing ${serverUrl} (lock file ${lockPath}).\n`,
          { keepNewlines: true },
        ),
      ),
  });
}

/** Beyond the browser wait: discovery, registration and the token request of the lock's holder. */
const LOCK_MARGIN_SECONDS = 60;

/** The OAuth client of a command and the listener behind it (closed on dispose). */
export interface CliAuth extends AsyncDisposable {
  /**
   * The client transport's option that authorizes the MCP requests: `authorization`, beneath the
   * transport's own requester (Node's keep-alive pool), unless a fetch was asked for (see createCliAuth).
   */
  transportOptions: { authorization: OAuthAuthorization } | { fetch: FetchLike };
  /** The token store file in use; undefined for a memory store. */
  storePath: string | undefined;
}

/** How the authorization URL is shown: `stderr` for the lines, whether to open a browser. */
export interface AuthPrompt {
  /** Where the label of the server and the URL go; default process.stderr. */
  write?: (text: string) => void;
  isBrowserWanted?: boolean;
}

/** How the OAuth client reaches the network. */
export interface CliAuthWiring {
  /** Makes the auth layer's own requests (metadata, registration, token), and the MCP ones with isFetchWanted. */
  inner: FetchLike;
  /** The MCP requests too through `inner` (an OAuth fetch): --trace and --record see every request so. */
  isFetchWanted: boolean;
}

/**
 * The OAuth client of the MCP endpoint `serverUrl`, which runs OAuth when the server answers 401. The
 * authorization URL is printed to stderr (and opened in a browser when one is there); the answer is
 * awaited on a loopback listener for `authTimeout` seconds. Metadata on loopback and private addresses
 * is allowed when the server itself is on one (the user chose a local server), or with allowPrivateAuth.
 */
export async function createCliAuth(
  serverUrl: string,
  options: CliAuthOptions,
  wiring: CliAuthWiring,
  prompt: AuthPrompt = {},
): Promise<CliAuth> {
  const { inner } = wiring;
  const listener = await LoopbackRedirect.listen();
  const write = prompt.write ?? ((text: string) => process.stderr.write(text));
  const isBrowserWanted = prompt.isBrowserWanted ?? canOpenBrowser();
  const storePath =
    options.tokenStore ?? (options.isStoreless === true ? undefined : tokenStorePath(serverUrl));
  const client: OAuthClientOptions = {
    fetch: inner,
    store:
      storePath === undefined ? createMemoryTokenStore() : fileStore(storePath, serverUrl, options, write),
    redirectUri: listener.redirectUri,
    clientMetadata: {
      client_name: 'mcpwire CLI',
      client_uri: 'https://github.com/mcpwire/mcpwire',
      software_id: 'mcpwire-cli',
      software_version: PACKAGE_VERSION,
    },
    allowPrivateNetwork: isPrivateAuthAllowed(serverUrl, options),
    ...(options.scope === undefined ? {} : { scope: options.scope }),
    ...(options.clientId === undefined
      ? {}
      : {
          client: {
            client_id: options.clientId,
            ...(options.clientSecret === undefined
              ? { token_endpoint_auth_method: 'none' }
              : { client_secret: options.clientSecret }),
          },
        }),
    authorize: async ({ url, issuer, state }) => {
      // The issuer and the URL are the servers' words: shown, never acted on by the terminal.
      write(
        toTerminalText(
          `mcpwire: ${serverUrl} needs authorization from ${issuer}.\n` +
            `Open this URL in a browser to continue (waiting ${options.authTimeout} s):\n  ${url.href}\n`,
          { keepNewlines: true },
        ),
      );
      options.onAuthorization?.({ url: url.href });
      if (isBrowserWanted) openBrowser(url.href);
      const redirect = await listener.waitForRedirect(state, options.authTimeout * 1000);
      options.onAuthorization?.({ redirect });
      write('mcpwire: authorization received.\n');
      return redirect;
    },
  };
  return {
    transportOptions: wiring.isFetchWanted
      ? { fetch: createOAuthFetch(serverUrl, client) }
      : { authorization: createOAuthAuthorization(serverUrl, client) },
    storePath,
    [Symbol.asyncDispose]: () => listener[Symbol.asyncDispose](),
  };
}
