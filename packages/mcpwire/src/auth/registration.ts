// Which client identity to use at an authorization server, in AUTH-13's order: credentials already held
// for that issuer, pre-registered ones, a Client ID Metadata Document, then dynamic registration
// (RFC 7591, with `application_type`, S26-AUTH-5).

import type { AuthorizationServerMetadata } from './authorization-server.ts';
import { OAuthError } from './errors.ts';
import { readJsonObject, type AuthFetchContext } from './metadata-fetch.ts';
import type { ClientCredentials } from './token-store.ts';
import { checkUrl } from './url-policy.ts';

/** Client credentials issued out of band for one authorization server. */
export interface PreRegisteredClient extends ClientCredentials {
  /** The issuer they belong to; never used at another (S26-AUTH-4). */
  issuer: string;
}

/** RFC 7591 client metadata the client registers; `redirect_uris` is filled in from the flow. */
export interface ClientMetadata {
  client_name?: string;
  client_uri?: string;
  software_id?: string;
  software_version?: string;
  [field: string]: unknown;
}

/** How the client may identify itself. */
export interface RegistrationOptions {
  redirectUri: string;
  clientMetadata: ClientMetadata;
  /** An HTTPS URL hosting this client's metadata document (AUTH-14), used where the server supports CIMD. */
  clientMetadataUrl?: string;
  preRegistered: readonly PreRegisteredClient[];
  /** `native` (the default: CLI, desktop, loopback redirects) or `web` (S26-AUTH-5). */
  applicationType: 'native' | 'web';
}

/**
 * The client identity for `metadata.issuer`: `held` if any, else a pre-registered one for that
 * issuer, else the metadata document URL (when `client_id_metadata_document_supported`), else a
 * dynamic registration. Rejects with OAuthError (step `registration`) when none is possible or the
 * registration is refused. The caller keeps the result per issuer.
 */
export async function resolveClient(
  metadata: AuthorizationServerMetadata,
  held: ClientCredentials | undefined,
  options: RegistrationOptions,
  context: AuthFetchContext,
): Promise<ClientCredentials> {
  if (held !== undefined) return held;
  const preRegistered = options.preRegistered.find((client) => client.issuer === metadata.issuer);
  if (preRegistered !== undefined) {
    const { issuer: _issuer, ...credentials } = preRegistered;
    return credentials;
  }
  if (metadata.client_id_metadata_document_supported === true && options.clientMetadataUrl !== undefined)
    return { client_id: options.clientMetadataUrl, token_endpoint_auth_method: 'none' };
  if (metadata.registration_endpoint !== undefined) return register(metadata, options, context);
  throw new OAuthError(
    'registration',
    `${metadata.issuer} has no registration_endpoint and no Client ID Metadata Document support (or no clientMetadataUrl was given); pass preRegistered credentials for it`,
  );
}

/** Dynamic client registration (RFC 7591 §3). */
async function register(
  metadata: AuthorizationServerMetadata,
  options: RegistrationOptions,
  context: AuthFetchContext,
): Promise<ClientCredentials> {
  const endpoint = new URL(metadata.registration_endpoint!);
  checkUrl(endpoint, context.policy, context.trustedOrigin);
  const supported = metadata.token_endpoint_auth_methods_supported;
  const authMethod =
    supported === undefined || supported.includes('none')
      ? 'none'
      : (supported.find((m) => m === 'client_secret_basic' || m === 'client_secret_post') ?? 'none');
  const body = {
    client_name: 'mcpwire client',
    ...options.clientMetadata,
    redirect_uris: [options.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: authMethod,
    application_type: options.applicationType,
  };
  const what = `POST ${endpoint.href} (dynamic client registration)`;
  let response: Response;
  try {
    response = await context.fetch(
      new Request(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        redirect: 'manual',
      }),
    );
  } catch (error) {
    throw new OAuthError('registration', `${what} failed: ${(error as Error).message}`, { cause: error });
  }
  const answer = await readJsonObject(response, what, 'registration');
  if (!response.ok || typeof answer.client_id !== 'string') {
    const code = typeof answer.error === 'string' ? answer.error : undefined;
    throw new OAuthError(
      'registration',
      `${what} was refused with ${response.status} ${code ?? ''}`.trimEnd(),
      {
        ...(code === undefined ? {} : { oauthError: code }),
      },
    );
  }
  const client: ClientCredentials = { client_id: answer.client_id };
  if (typeof answer.client_secret === 'string') client.client_secret = answer.client_secret;
  if (typeof answer.token_endpoint_auth_method === 'string')
    client.token_endpoint_auth_method = answer.token_endpoint_auth_method;
  return client;
}
