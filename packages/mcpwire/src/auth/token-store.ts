// Where the OAuth client keeps what it learned per authorization server: the client registration and
// the tokens, keyed by issuer so nothing is reused across authorization servers (S26-AUTH-4).

/** A client identity at one authorization server. */
export interface ClientCredentials {
  client_id: string;
  client_secret?: string;
  /** How the client authenticates at the token endpoint (RFC 7591 §2). */
  token_endpoint_auth_method?: string;
}

/** Tokens from one token response. */
export interface Tokens {
  accessToken: string;
  tokenType: string;
  refreshToken?: string;
  /** Milliseconds since the epoch at which the access token expires, when `expires_in` was given. */
  expiresAt?: number;
  /** The granted scope, when the response said. */
  scope?: string;
}

/** Everything kept for one issuer. */
export interface IssuerRecord {
  client?: ClientCredentials;
  tokens?: Tokens;
  /** The scope last requested there: the base of a step-up union (S26-AUTH-8). */
  requestedScope?: string;
  /** The `resource` the tokens were requested for. */
  resource?: string;
}

/**
 * Storage of IssuerRecords. Implementations must keep records confidential (AUTH-29); `set` replaces
 * the whole record. Calls for one issuer are not concurrent within one OAuth client: it serializes its
 * flows. A store shared by several clients (processes) gives `exclusive`.
 */
export interface TokenStore {
  get(issuer: string): Promise<IssuerRecord | undefined>;
  set(issuer: string, record: IssuerRecord): Promise<void>;
  delete(issuer: string): Promise<void>;
  /**
   * Runs `flow` (read the record; register, log in or refresh if it holds no usable token; write it)
   * while no other client of the same store runs one, so concurrent clients register and log in once:
   * the OAuth client reads the record again inside and adopts what another one stored meanwhile.
   */
  exclusive?<T>(flow: () => Promise<T>): Promise<T>;
}

/** A TokenStore in memory, for one process's lifetime; records are copied in and out. */
export function createMemoryTokenStore(): TokenStore {
  const records = new Map<string, IssuerRecord>();
  return {
    get: (issuer) => Promise.resolve(structuredCloneOf(records.get(issuer))),
    set: (issuer, record) => {
      records.set(issuer, structuredClone(record));
      return Promise.resolve();
    },
    delete: (issuer) => {
      records.delete(issuer);
      return Promise.resolve();
    },
  };
}

function structuredCloneOf(record: IssuerRecord | undefined): IssuerRecord | undefined {
  return record === undefined ? undefined : structuredClone(record);
}
