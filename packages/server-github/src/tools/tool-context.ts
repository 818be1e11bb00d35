// What every github tool handler needs: the database, the server (to announce changes to
// subscribers), the acting account, and the readers for the arguments every tool shares.

import type { Server } from 'mcpwire/server';
import type { Db } from '../database/db.ts';
import { requireRepository, type RepositoryRow } from '../store/repositories.ts';
import { issueUri, pullUri } from '../uris.ts';

/** The github server's state, shared by its tools, resources and prompts. */
export interface GithubContext {
  readonly db: Db;
  readonly server: Server;
  /** The login writes are made as (GitHub's "authenticated user"). */
  readonly actor: string;
}

/** Resolves `args.owner`/`args.repo`; throws GithubInputError naming what exists. */
export function repositoryOf(context: GithubContext, args: Record<string, unknown>): RepositoryRow {
  return requireRepository(context.db, String(args.owner), String(args.repo));
}

/** `page`/`perPage` with GitHub's defaults (1 and 30); the schema has already bounded them. */
export function pageOf(args: Record<string, unknown>): { page: number; perPage: number } {
  return {
    page: typeof args.page === 'number' ? args.page : 1,
    perPage: typeof args.perPage === 'number' ? args.perPage : 30,
  };
}

/** The value of `args[key]` if it is a string, else undefined. */
export function optionalString(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  return typeof value === 'string' ? value : undefined;
}

/** The value of `args[key]` if it is a list of strings, else undefined. */
export function optionalList(args: Record<string, unknown>, key: string): string[] | undefined {
  const value = args[key];
  return Array.isArray(value) ? value.map(String) : undefined;
}

/**
 * Tells subscribers (resources/subscribe in the handshake era, subscriptions/listen in 2026-07-28)
 * that issue `number` changed; a pull request's own resource too. Every connection of the server hears it.
 */
export function announceChange(
  context: GithubContext,
  repository: RepositoryRow,
  number: number,
  isPullRequest: boolean,
): void {
  context.server.notifyResourceUpdated(issueUri(repository.owner, repository.name, number));
  if (isPullRequest) context.server.notifyResourceUpdated(pullUri(repository.owner, repository.name, number));
}
