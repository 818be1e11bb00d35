// Migration 1: the whole first schema. Issues and pull requests share one table and one number
// sequence per repository, as on GitHub; the FTS5 indexes are external-content tables kept in step
// by triggers, so a write is indexed in the same transaction.

import type { Migration } from './migration.ts';

/** The initial schema: users, repositories, labels, issues, pull requests, comments, files, search. */
export const INITIAL_SCHEMA: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  login TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('User', 'Organization')),
  created_at TEXT NOT NULL
);

CREATE TABLE repositories (
  id INTEGER PRIMARY KEY,
  owner_id INTEGER NOT NULL REFERENCES users (id),
  name TEXT NOT NULL COLLATE NOCASE,
  description TEXT NOT NULL DEFAULT '',
  default_branch TEXT NOT NULL DEFAULT 'main',
  next_number INTEGER NOT NULL DEFAULT 1 CHECK (next_number >= 1),
  created_at TEXT NOT NULL,
  UNIQUE (owner_id, name)
);

CREATE TABLE labels (
  id INTEGER PRIMARY KEY,
  repository_id INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  name TEXT NOT NULL COLLATE NOCASE,
  color TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  UNIQUE (repository_id, name)
);

CREATE TABLE issues (
  id INTEGER PRIMARY KEY,
  repository_id INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  number INTEGER NOT NULL CHECK (number >= 1),
  title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 256),
  body TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL CHECK (state IN ('open', 'closed')),
  state_reason TEXT CHECK (state_reason IN ('completed', 'not_planned', 'reopened')),
  author_id INTEGER NOT NULL REFERENCES users (id),
  is_pull_request INTEGER NOT NULL DEFAULT 0 CHECK (is_pull_request IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  closed_at TEXT,
  UNIQUE (repository_id, number)
);
CREATE INDEX issues_by_state ON issues (repository_id, is_pull_request, state, number);
CREATE INDEX issues_by_author ON issues (author_id);

CREATE TABLE issue_labels (
  issue_id INTEGER NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
  label_id INTEGER NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
  PRIMARY KEY (issue_id, label_id)
) WITHOUT ROWID;
CREATE INDEX issue_labels_by_label ON issue_labels (label_id);

CREATE TABLE issue_assignees (
  issue_id INTEGER NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users (id),
  PRIMARY KEY (issue_id, user_id)
) WITHOUT ROWID;
CREATE INDEX issue_assignees_by_user ON issue_assignees (user_id);

CREATE TABLE comments (
  id INTEGER PRIMARY KEY,
  issue_id INTEGER NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users (id),
  body TEXT NOT NULL CHECK (length(body) >= 1),
  created_at TEXT NOT NULL
);
CREATE INDEX comments_by_issue ON comments (issue_id, id);

CREATE TABLE pull_requests (
  issue_id INTEGER PRIMARY KEY REFERENCES issues (id) ON DELETE CASCADE,
  head_ref TEXT NOT NULL,
  base_ref TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  base_sha TEXT NOT NULL,
  is_draft INTEGER NOT NULL DEFAULT 0 CHECK (is_draft IN (0, 1)),
  merged_at TEXT,
  merged_by_id INTEGER REFERENCES users (id)
);

CREATE TABLE pull_request_files (
  pull_request_id INTEGER NOT NULL REFERENCES pull_requests (issue_id) ON DELETE CASCADE,
  filename TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('added', 'modified', 'removed')),
  additions INTEGER NOT NULL CHECK (additions >= 0),
  deletions INTEGER NOT NULL CHECK (deletions >= 0),
  patch TEXT NOT NULL,
  PRIMARY KEY (pull_request_id, filename)
);

CREATE TABLE branches (
  repository_id INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  PRIMARY KEY (repository_id, name)
);

-- A file as it is on one branch. A branch other than the default holds only the files it changed.
CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  repository_id INTEGER NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
  ref TEXT NOT NULL,
  path TEXT NOT NULL,
  content TEXT NOT NULL,
  sha TEXT NOT NULL,
  UNIQUE (repository_id, ref, path)
);

CREATE VIRTUAL TABLE issues_fts USING fts5 (
  title, body, content = 'issues', content_rowid = 'id', tokenize = 'porter unicode61'
);
CREATE TRIGGER issues_fts_insert AFTER INSERT ON issues BEGIN
  INSERT INTO issues_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TRIGGER issues_fts_delete AFTER DELETE ON issues BEGIN
  INSERT INTO issues_fts (issues_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
END;
CREATE TRIGGER issues_fts_update AFTER UPDATE OF title, body ON issues BEGIN
  INSERT INTO issues_fts (issues_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
  INSERT INTO issues_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;

CREATE VIRTUAL TABLE comments_fts USING fts5 (
  body, content = 'comments', content_rowid = 'id', tokenize = 'porter unicode61'
);
CREATE TRIGGER comments_fts_insert AFTER INSERT ON comments BEGIN
  INSERT INTO comments_fts (rowid, body) VALUES (new.id, new.body);
END;
CREATE TRIGGER comments_fts_delete AFTER DELETE ON comments BEGIN
  INSERT INTO comments_fts (comments_fts, rowid, body) VALUES ('delete', old.id, old.body);
END;

CREATE VIRTUAL TABLE files_fts USING fts5 (
  path, content, content = 'files', content_rowid = 'id', tokenize = 'unicode61'
);
CREATE TRIGGER files_fts_insert AFTER INSERT ON files BEGIN
  INSERT INTO files_fts (rowid, path, content) VALUES (new.id, new.path, new.content);
END;
CREATE TRIGGER files_fts_delete AFTER DELETE ON files BEGIN
  INSERT INTO files_fts (files_fts, rowid, path, content) VALUES ('delete', old.id, old.path, old.content);
END;
`,
};
