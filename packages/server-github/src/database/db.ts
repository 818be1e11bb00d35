// The connection type every store and seed step takes, named once.

import type Database from 'better-sqlite3';

/** An open better-sqlite3 connection to the github database. */
export type Db = Database.Database;
