// The package's entry: a GitHub-like MCP server on an embedded SQLite database (issues, pull
// requests, comments, files, search), seeded on first start, and the database's default location.

import { readFileSync } from 'node:fs';
import { tasks } from 'mcpwire/extensions/tasks';
import { Server } from 'mcpwire/server';
import { issueBoardApp, registerIssueBoard } from './board.ts';
import type { Db } from './database/db.ts';
import { defaultDatabasePath } from './database/data-path.ts';
import { openDatabase } from './database/open-database.ts';
import { registerGithubPrompts } from './prompts.ts';
import { registerGithubResources } from './resources.ts';
import { registerCodeTools } from './tools/code-tools.ts';
import { registerIssueReadTools } from './tools/issue-read-tools.ts';
import { registerIssueWriteTools } from './tools/issue-write-tools.ts';
import { registerPullRequestTools } from './tools/pull-request-tools.ts';
import { registerSummarizeTool } from './tools/summarize-tool.ts';

export { defaultDatabasePath, DATABASE_FILE_NAME, type DataPathOptions } from './database/data-path.ts';

/** This package's version (`src/` and `dist/` both sit one folder below package.json). */
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Options of {@link createGithubServer}. */
export interface GithubServerOptions {
  /** The database file, or ':memory:'; default {@link defaultDatabasePath} (its folder is created). */
  db?: string;
  /** The login writes are made as (created on first write); default `mcp-user`. */
  actor?: string;
}

/**
 * The github server: a `Server` that owns its database. `close()` ends every connection, then
 * closes the database (idempotent); `await using` does the same. Serve it over any number of
 * connections: SQLite calls are synchronous and every write is one transaction, so concurrent
 * clients of one instance never interleave inside a write.
 */
export class GithubServer extends Server {
  /** Where the database lives (':memory:' for an in-memory one). */
  readonly databasePath: string;
  readonly #db: Db;
  #closing: Promise<void> | undefined;

  constructor(db: Db, databasePath: string) {
    super(
      { name: 'mcpwire-github', title: 'GitHub (SQLite)', version: PACKAGE_VERSION },
      {
        instructions:
          'A GitHub-like tracker. Tools take owner and repo as the official GitHub MCP server does. ' +
          'Use search_issues (GitHub search syntax) before create_issue. Issues are resources at ' +
          'github://repos/{owner}/{repo}/issues/{number}; subscribe to hear of new comments.',
        // MCP Apps: the issue board view, linked from show_issue_board for hosts that render apps.
        // Tasks: the slow searches (search_issues, search_code) run as tasks when the client asks.
        extensions: [issueBoardApp, tasks()],
      },
    );
    this.#db = db;
    this.databasePath = databasePath;
  }

  /** Ends every connection and listen stream, then closes the database. Idempotent. */
  override close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        await super.close();
      } finally {
        if (this.#db.open) this.#db.close();
      }
    })();
    return this.#closing;
  }

  /** `await using server = createGithubServer(...)`: closes as `close()` does. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Opens (creating, migrating and seeding as needed) the database and returns a server on it with
 * every tool, resource template and prompt registered. Throws if the database cannot be opened.
 */
export function createGithubServer(options: GithubServerOptions = {}): GithubServer {
  const path = options.db ?? defaultDatabasePath();
  const db = openDatabase(path);
  const server = new GithubServer(db, path);
  const context = { db, server, actor: options.actor ?? 'mcp-user' };
  registerIssueReadTools(context);
  registerIssueWriteTools(context);
  registerPullRequestTools(context);
  registerCodeTools(context);
  registerSummarizeTool(context);
  registerIssueBoard(context);
  registerGithubResources(context);
  registerGithubPrompts(context);
  return server;
}
