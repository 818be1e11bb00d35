// Opening the github database: the connection settings every connection needs (WAL, foreign keys,
// a busy timeout for other processes), the migrations, and the seed on first start.

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Db } from './db.ts';
import { MIGRATIONS, type Migration } from '../migrations/migrations.ts';
import { seedDatabase } from '../seed/seed-database.ts';

/** How long a write waits for another process's lock before it fails with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating the folder and the file if needed) the database at `path`, or an in-memory one
 * for ':memory:'; applies pending migrations and seeds an empty database, each in one immediate
 * transaction, so two processes starting on one new file cannot both seed it.
 */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('synchronous = NORMAL');
    migrate(db, MIGRATIONS);
    db.transaction(() => {
      const { count } = db.prepare('SELECT count(*) AS count FROM repositories').get() as { count: number };
      if (count === 0) seedDatabase(db);
    }).immediate();
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Applies every migration newer than `PRAGMA user_version`, each in its own immediate transaction
 * that also records it in `schema_migrations` and bumps `user_version`. A database newer than this
 * code is refused rather than guessed at.
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
          `The github database is at schema version ${current}, newer than this server's ${latest}; upgrade @mcpwire/server-github`,
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
