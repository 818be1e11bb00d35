// Migration 1: the first schema. Each record is kept as JSON beside the columns it is looked up or
// expired by; codes and refresh tokens are keyed by their SHA-256, never stored as issued.

import type { Migration } from './migration.ts';

/** Clients, pending consents, codes, refresh tokens, revoked families and the signing key. */
export const INITIAL_SCHEMA: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE clients (
  client_id TEXT PRIMARY KEY,
  record TEXT NOT NULL
);

CREATE TABLE pending_consents (
  id TEXT PRIMARY KEY,
  record TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX pending_consents_expires_at ON pending_consents (expires_at);

CREATE TABLE authorization_codes (
  code_hash TEXT PRIMARY KEY,
  record TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX authorization_codes_expires_at ON authorization_codes (expires_at);

CREATE TABLE refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  family_id TEXT NOT NULL,
  record TEXT NOT NULL
);
CREATE INDEX refresh_tokens_family_id ON refresh_tokens (family_id);

CREATE TABLE revoked_families (
  family_id TEXT PRIMARY KEY
);

CREATE TABLE signing_keys (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  private_jwk TEXT NOT NULL
);
`,
};
