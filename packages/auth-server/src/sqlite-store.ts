// The authorization server's state in a SQLite file (better-sqlite3): registrations, refresh-token
// families and the signing key survive a restart. WAL journal, one transaction per write, numbered
// migrations; the file is created owner-only since it holds the private key and client secrets.

import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { JWK } from 'jose';
import { hashToken, type AuthorizationStore } from './authorization-store.ts';
import { MIGRATIONS, type Migration } from './migrations/migrations.ts';
import type { ClientRecord, CodeRecord, PendingConsent, RefreshRecord } from './records.ts';

/** How long a write waits for another process's lock before it fails with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

type Db = Database.Database;

/**
 * Opens (creating the folder and the file if needed) the store at `file` and applies pending
 * migrations. Every write is one statement or one immediate transaction, so it is durable and
 * atomic on return; `close()` releases the connection.
 */
export function createSqliteStore(file: string): AuthorizationStore {
  const db = openDatabase(file);
  const run = (sql: string) => db.prepare(sql);
  const statements = {
    getClient: run('SELECT record FROM clients WHERE client_id = ?').pluck(),
    putClient: run('INSERT OR REPLACE INTO clients (client_id, record) VALUES (?, ?)'),
    putPending: run('INSERT OR REPLACE INTO pending_consents (id, record, expires_at) VALUES (?, ?, ?)'),
    getPending: run('SELECT record FROM pending_consents WHERE id = ?').pluck(),
    deletePending: run('DELETE FROM pending_consents WHERE id = ?'),
    putCode: run(
      'INSERT OR REPLACE INTO authorization_codes (code_hash, record, expires_at) VALUES (?, ?, ?)',
    ),
    getCode: run('SELECT record FROM authorization_codes WHERE code_hash = ?').pluck(),
    putRefresh: run('INSERT OR REPLACE INTO refresh_tokens (token_hash, family_id, record) VALUES (?, ?, ?)'),
    getRefresh: run('SELECT record FROM refresh_tokens WHERE token_hash = ?').pluck(),
    revokeFamily: run('INSERT OR IGNORE INTO revoked_families (family_id) VALUES (?)'),
    isFamilyRevoked: run('SELECT 1 FROM revoked_families WHERE family_id = ?').pluck(),
    getSigningKey: run('SELECT private_jwk FROM signing_keys WHERE id = 1').pluck(),
    putSigningKey: run('INSERT OR IGNORE INTO signing_keys (id, private_jwk) VALUES (1, ?)'),
    deleteExpiredPending: run('DELETE FROM pending_consents WHERE expires_at <= ?'),
    deleteExpiredCodes: run('DELETE FROM authorization_codes WHERE expires_at <= ?'),
  };
  const takePending = db.transaction((id: string): PendingConsent | undefined => {
    const record = parse<PendingConsent>(statements.getPending.get(id));
    statements.deletePending.run(id);
    return record;
  });
  const deleteExpired = db.transaction((now: number): void => {
    statements.deleteExpiredPending.run(now);
    statements.deleteExpiredCodes.run(now);
  });
  return {
    getClient: (clientId) => parse<ClientRecord>(statements.getClient.get(clientId)),
    putClient: (client) => void statements.putClient.run(client.clientId, JSON.stringify(client)),
    putPending: (record) =>
      void statements.putPending.run(record.id, JSON.stringify(record), record.expiresAt),
    takePending: (id) => takePending.immediate(id),
    putCode: (code, record) =>
      void statements.putCode.run(hashToken(code), JSON.stringify(record), record.expiresAt),
    getCode: (code) => parse<CodeRecord>(statements.getCode.get(hashToken(code))),
    putRefresh: (token, record) =>
      void statements.putRefresh.run(hashToken(token), record.familyId, JSON.stringify(record)),
    getRefresh: (token) => parse<RefreshRecord>(statements.getRefresh.get(hashToken(token))),
    revokeFamily: (familyId) => void statements.revokeFamily.run(familyId),
    isFamilyRevoked: (familyId) => statements.isFamilyRevoked.get(familyId) !== undefined,
    getSigningKey: () => parse<JWK>(statements.getSigningKey.get()),
    putSigningKey: (jwk) => void statements.putSigningKey.run(JSON.stringify(jwk)),
    deleteExpired: (now) => deleteExpired.immediate(now),
    close: () => db.close(),
  };
}

function parse<T>(text: unknown): T | undefined {
  return typeof text === 'string' ? (JSON.parse(text) as T) : undefined;
}

function openDatabase(file: string): Db {
  mkdirSync(dirname(file), { recursive: true });
  // Created owner-only before SQLite opens it; SQLite gives its -wal and -shm files the same mode.
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('synchronous = NORMAL');
    migrate(db, MIGRATIONS);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Applies every migration newer than `PRAGMA user_version`, each in its own immediate transaction
 * that records it in `schema_migrations`. A database newer than this code is refused, not guessed at.
 */
export function migrate(db: Db, migrations: readonly Migration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const latest = migrations.at(-1)?.version ?? 0;
  for (const migration of migrations) {
    db.transaction(() => {
      const current = db.pragma('user_version', { simple: true }) as number;
      if (current > latest)
        throw new Error(
          `the authorization server's database is at schema version ${current}, newer than this server's ${latest}; upgrade @mcpwire/auth-server`,
        );
      if (current >= migration.version) return;
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
      // PRAGMA takes no bound parameters; the version is an integer from our own table.
      db.pragma(`user_version = ${Math.trunc(migration.version)}`);
    }).immediate();
  }
}
