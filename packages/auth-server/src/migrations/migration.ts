// The shape of one schema migration of the authorization server's SQLite store.

/** One schema step: applied once, in one transaction, recorded in schema_migrations and user_version. */
export interface Migration {
  /** 1, 2, 3, ...: equal to the file's number and to `PRAGMA user_version` once applied. */
  version: number;
  name: string;
  sql: string;
}
