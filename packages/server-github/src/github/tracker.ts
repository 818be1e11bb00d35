// An in-memory GitHub-like tracker for the github demo server: one repository with issues, pull
// requests, comments and a few source files. Issues and pull requests share one number sequence.

/** A comment on an issue or a pull request. */
export interface Comment {
  author: string;
  body: string;
}

/** An issue. */
export interface Issue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  author: string;
  labels: string[];
  comments: Comment[];
}

/** A pull request. */
export interface PullRequest {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed' | 'merged';
  author: string;
  head: string;
  base: string;
  changedFiles: string[];
  comments: Comment[];
}

/** A file of the repository, for code search. */
export interface SourceFile {
  path: string;
  text: string;
}

/** A tracker holding one repository. Instances share nothing; each server gets its own. */
export class Tracker {
  readonly repository = 'acme/webapp';
  readonly #issues = new Map<number, Issue>();
  readonly #pulls = new Map<number, PullRequest>();
  readonly files: readonly SourceFile[] = SEED_FILES;
  #nextNumber = 1;

  constructor() {
    for (const seed of SEED_ISSUES) this.createIssue(seed);
    this.#addPullRequest(SEED_PULL);
    this.addComment(1, {
      author: 'dana',
      body: 'Reproduced on staging: the session cookie is missing after the redirect.',
    });
  }

  /** Issues in number order, optionally only those in `state`. */
  listIssues(state: 'open' | 'closed' | 'all' = 'open'): Issue[] {
    return [...this.#issues.values()].filter((issue) => state === 'all' || issue.state === state);
  }

  getIssue(number: number): Issue | undefined {
    return this.#issues.get(number);
  }

  getPullRequest(number: number): PullRequest | undefined {
    return this.#pulls.get(number);
  }

  /** Opens an issue under the next free number and returns it. */
  createIssue(fields: { title: string; body?: string; author?: string; labels?: string[] }): Issue {
    const issue: Issue = {
      number: this.#nextNumber++,
      title: fields.title,
      body: fields.body ?? '',
      state: 'open',
      author: fields.author ?? 'mcp-user',
      labels: fields.labels ?? [],
      comments: [],
    };
    this.#issues.set(issue.number, issue);
    return issue;
  }

  /** Adds a comment to the issue or pull request `number`; returns where it went, or undefined if neither exists. */
  addComment(number: number, comment: Comment): 'issue' | 'pull request' | undefined {
    const issue = this.#issues.get(number);
    if (issue) {
      issue.comments.push(comment);
      return 'issue';
    }
    const pull = this.#pulls.get(number);
    if (pull) {
      pull.comments.push(comment);
      return 'pull request';
    }
    return undefined;
  }

  #addPullRequest(fields: Omit<PullRequest, 'number' | 'comments'>): void {
    const pull: PullRequest = { ...fields, number: this.#nextNumber++, comments: [] };
    this.#pulls.set(pull.number, pull);
  }
}

/** An issue as Markdown: what the `github://issues/<n>` resources hold. */
export function issueToMarkdown(issue: Issue): string {
  const labels = issue.labels.length === 0 ? '' : `\nLabels: ${issue.labels.join(', ')}`;
  const comments = issue.comments.map((comment) => `\n\n**${comment.author}:** ${comment.body}`).join('');
  return `# #${issue.number} ${issue.title}\n\nState: ${issue.state} · Author: ${issue.author}${labels}\n\n${issue.body}${comments}\n`;
}

const SEED_ISSUES = [
  {
    title: 'Login page returns 500 after password reset',
    body: 'Steps: reset the password, follow the email link, sign in. The server answers 500.',
    author: 'sam',
    labels: ['bug', 'auth'],
  },
  {
    title: 'Add dark mode to the settings page',
    body: 'Follow the system theme by default.',
    author: 'lee',
    labels: ['enhancement'],
  },
  {
    title: 'Flaky test: checkout flow times out on CI',
    body: 'Fails about one run in ten.',
    author: 'dana',
    labels: ['ci'],
  },
];

const SEED_PULL: Omit<PullRequest, 'number' | 'comments'> = {
  title: 'Fix session cookie lost after password reset redirect',
  body: 'Fixes #1. Keeps the session cookie across the reset redirect.',
  state: 'open',
  author: 'sam',
  head: 'fix/reset-session',
  base: 'main',
  changedFiles: ['src/auth/reset.ts', 'src/auth/session.ts'],
};

const SEED_FILES: readonly SourceFile[] = [
  {
    path: 'src/auth/reset.ts',
    text: 'export async function resetPassword(token: string) {\n  const session = await loadSession(token);\n  return redirect("/login", session);\n}\n',
  },
  {
    path: 'src/auth/session.ts',
    text: 'export function loadSession(token: string) {\n  return sessions.get(token);\n}\n',
  },
  { path: 'src/settings/theme.ts', text: 'export const defaultTheme = "light";\n' },
  {
    path: 'src/checkout/flow.ts',
    text: 'export async function checkout(cart: Cart) {\n  await reserve(cart);\n  return pay(cart);\n}\n',
  },
  { path: 'test/checkout.test.ts', text: 'test("checkout", async () => {\n  await checkout(cart);\n});\n' },
  { path: 'README.md', text: '# webapp\n\nRun `npm start`; sessions live in memory.\n' },
];
