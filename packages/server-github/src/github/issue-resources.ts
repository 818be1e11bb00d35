// One resource per issue (`github://issues/<n>`), registered as issues appear, so that creating an
// issue reaches clients as notifications/resources/list_changed and commenting as resources/updated.

import type { Server } from 'mcpwire/server';
import { issueToMarkdown, type Issue, type Tracker } from './tracker.ts';

/** The URI of issue `number`'s resource. */
export function issueUri(number: number): string {
  return `github://issues/${number}`;
}

/** Keeps the server's issue resources in step with the tracker. */
export class IssueResources {
  readonly #server: Server;
  readonly #tracker: Tracker;

  /** Registers a resource for every issue the tracker already has. */
  constructor(server: Server, tracker: Tracker) {
    this.#server = server;
    this.#tracker = tracker;
    for (const issue of tracker.listIssues('all')) this.add(issue);
  }

  /** Registers the resource of a new issue; connected clients hear resources/list_changed. */
  add(issue: Issue): void {
    const number = issue.number;
    this.#server.resource(
      {
        uri: issueUri(number),
        name: `issue-${number}`,
        title: `#${number} ${issue.title}`,
        description: `Issue #${number} of ${this.#tracker.repository}, as Markdown`,
        mimeType: 'text/markdown',
      },
      () => {
        const current = this.#tracker.getIssue(number);
        // Registered only for issues that exist, and issues are never deleted.
        if (!current) throw new Error(`Issue #${number} vanished from the tracker`);
        return issueToMarkdown(current);
      },
    );
  }

  /** Tells subscribed clients that issue `number` changed (resources/updated). */
  changed(number: number): void {
    this.#server.notifyResourceUpdated(issueUri(number));
  }
}
