// `mcpwire demo --http --auth`: what the wire must have shown of the authorization, checked after the
// first step (whose first request met the 401): the challenge naming the resource metadata (AUTH-6a),
// discovery (AUTH-4, AUTH-12), registration (AUTH-13), the authorization with PKCE and `resource`
// (AUTH-19, AUTH-31) answered with `iss` (RFC 9207), the token, and the retried call (AUTH-21).

import type { DemoPrinter } from '../../terminal/demo-printer.ts';
import type { AuthExchange } from './auth-wire.ts';
import type { Checks } from './checks.ts';
import type { HttpExchange } from './http-wire.ts';

/** Checks the authorization exchanges the first step caused. */
export function checkAuthorization(
  printer: DemoPrinter,
  checks: Checks,
  wire: { exchanges: readonly HttpExchange[]; authExchanges: readonly AuthExchange[] },
): void {
  printer.heading('Authorization (OAuth 2.1), as it crossed the wire');
  const [first, second] = wire.exchanges;
  const auth = wire.authExchanges;
  const find = (step: AuthExchange['step']): AuthExchange | undefined =>
    auth.find((exchange) => exchange.step === step);
  checks.expect(first?.status === 401, 'the first MCP request, without a token, was answered 401');
  const prm = find('resource metadata');
  checks.expect(
    prm?.status === 200,
    'the protected resource metadata its challenge named was fetched (RFC 9728)',
  );
  checks.expect(
    find('authorization server metadata')?.status === 200,
    'then the authorization server metadata (RFC 8414)',
  );
  checks.expect(
    find('registration')?.status === 201,
    'the host registered itself (dynamic client registration, RFC 7591)',
  );
  const authorization = find('authorization');
  const query = authorization === undefined ? undefined : new URL(authorization.url).searchParams;
  checks.expect(
    query?.get('code_challenge_method') === 'S256' && query.get('resource') !== null,
    'the authorization request carried a PKCE S256 challenge and the resource (AUTH-19, AUTH-31)',
  );
  const redirect = authorization?.location === undefined ? undefined : new URL(authorization.location);
  checks.expect(
    authorization !== undefined &&
      authorization.status >= 300 &&
      authorization.status < 400 &&
      redirect?.searchParams.has('code') === true &&
      redirect.searchParams.has('iss'),
    'consent was auto-approved: a redirect with a code and iss (RFC 9207)',
  );
  checks.expect(find('token')?.status === 200, 'the code was exchanged for a token');
  checks.expect(
    second !== undefined && second.status !== 401 && second.rpc.join() === first?.rpc.join(),
    'the refused request was sent again with the token, and accepted',
  );
}
