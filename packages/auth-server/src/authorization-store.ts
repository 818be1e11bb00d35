// The contract of the authorization server's state, which the memory store and the SQLite store
// both implement, and the hashing under which tokens and codes are kept (never as issued).

import { createHash } from 'node:crypto';
import type { JWK } from 'jose';
import type { ClientRecord, CodeRecord, PendingConsent, RefreshRecord } from './records.ts';

/** The SHA-256 of a token or code, base64url: the key it is stored under. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * Where the authorization server keeps its records. Every method is synchronous and takes effect at
 * once, so two requests racing for one code or refresh token see each other's change.
 */
export interface AuthorizationStore {
  getClient(clientId: string): ClientRecord | undefined;
  putClient(client: ClientRecord): void;
  putPending(pending: PendingConsent): void;
  /** Removes and returns the pending consent `id`: each can be decided once. */
  takePending(id: string): PendingConsent | undefined;
  putCode(code: string, record: CodeRecord): void;
  getCode(code: string): CodeRecord | undefined;
  putRefresh(token: string, record: RefreshRecord): void;
  getRefresh(token: string): RefreshRecord | undefined;
  revokeFamily(familyId: string): void;
  isFamilyRevoked(familyId: string): boolean;
  /** The signing key's private JWK saved by {@link putSigningKey}, if any. */
  getSigningKey(): JWK | undefined;
  /**
   * Keeps the signing key, so tokens signed before a restart still verify after it. When one is kept
   * already (another process sharing the file saved it first) it stays: the first key wins.
   */
  putSigningKey(jwk: JWK): void;
  /** Deletes the pending consents and the codes whose `expiresAt` is at or before `now`. */
  deleteExpired(now: number): void;
  /** Releases what the store holds (a database connection); the store is unusable afterwards. */
  close(): void;
}
