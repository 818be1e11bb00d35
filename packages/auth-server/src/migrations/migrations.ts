// The SQLite store's schema history: every migration in order. They are TypeScript modules holding
// SQL so that `tsc` (dist/) and the CLI's bundle carry them with no copy step or file lookup.

import { INITIAL_SCHEMA } from './001-initial.ts';
import type { Migration } from './migration.ts';

export type { Migration } from './migration.ts';

/** Every migration, oldest first; versions are consecutive from 1. */
export const MIGRATIONS: readonly Migration[] = [INITIAL_SCHEMA];
