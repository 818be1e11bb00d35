// The authorization server's state in memory: lost when the process ends, which suits tests and a
// development session. Tokens and codes are kept under their SHA-256, never as issued.

import type { JWK } from 'jose';
import { hashToken, type AuthorizationStore } from './authorization-store.ts';
import type { ClientRecord, CodeRecord, PendingConsent, RefreshRecord } from './records.ts';

/** A new, empty in-memory {@link AuthorizationStore}. */
export function createMemoryStore(): AuthorizationStore {
  const clients = new Map<string, ClientRecord>();
  const pending = new Map<string, PendingConsent>();
  const codes = new Map<string, CodeRecord>();
  const refresh = new Map<string, RefreshRecord>();
  const revokedFamilies = new Set<string>();
  let signingKey: JWK | undefined;
  return {
    getClient: (clientId) => clients.get(clientId),
    putClient: (client) => void clients.set(client.clientId, client),
    putPending: (record) => void pending.set(record.id, record),
    takePending: (id) => {
      const record = pending.get(id);
      pending.delete(id);
      return record;
    },
    putCode: (code, record) => void codes.set(hashToken(code), record),
    getCode: (code) => codes.get(hashToken(code)),
    putRefresh: (token, record) => void refresh.set(hashToken(token), record),
    getRefresh: (token) => refresh.get(hashToken(token)),
    revokeFamily: (familyId) => void revokedFamilies.add(familyId),
    isFamilyRevoked: (familyId) => revokedFamilies.has(familyId),
    getSigningKey: () => signingKey,
    putSigningKey: (jwk) => void (signingKey ??= jwk),
    deleteExpired: (now) => {
      for (const [id, record] of pending) if (record.expiresAt <= now) pending.delete(id);
      for (const [hash, record] of codes) if (record.expiresAt <= now) codes.delete(hash);
    },
    close: () => undefined,
  };
}
