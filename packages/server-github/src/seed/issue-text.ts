// The words of the seeded issues: titles, bodies and comments made from templates and a
// repository's areas, with the labels each kind of issue gets.

import type { Random } from './random.ts';

/** The labels every seeded repository has: name, colour, description. */
export const LABELS: ReadonlyArray<readonly [string, string, string]> = [
  ['bug', 'd73a4a', "Something isn't working"],
  ['enhancement', 'a2eeef', 'New feature or request'],
  ['documentation', '0075ca', 'Improvements or additions to documentation'],
  ['good first issue', '7057ff', 'Good for newcomers'],
  ['help wanted', '008672', 'Extra attention is needed'],
  ['performance', 'fbca04', 'Slow or resource hungry'],
  ['security', 'b60205', 'A vulnerability or hardening'],
  ['ci', 'ededed', 'Build and test infrastructure'],
  ['dependencies', '0366d6', 'Updates a dependency'],
  ['question', 'd876e3', 'Further information is requested'],
  ['duplicate', 'cfd3d7', 'This issue or pull request already exists'],
  ['wontfix', 'ffffff', 'This will not be worked on'],
];

/** What an issue is: decides its title, body and labels. */
type IssueKind = 'bug' | 'feature' | 'docs' | 'performance' | 'security' | 'ci' | 'question';

const KINDS: readonly IssueKind[] = [
  'bug',
  'bug',
  'bug',
  'feature',
  'feature',
  'docs',
  'performance',
  'security',
  'ci',
  'question',
];

const TITLES: Record<IssueKind, readonly string[]> = {
  bug: [
    '{area} returns 500 after {event}',
    '{area} crashes when {event}',
    'Wrong result from {area} when {event}',
    '{area}: state is lost after {event}',
    'Regression: {area} no longer works when {event}',
  ],
  feature: ['Add {feature} to {area}', 'Support {feature} in {area}', '{area}: allow {feature}'],
  docs: ['Document how {area} handles {event}', 'Typo in the {area} guide', 'Add an example for {area}'],
  performance: ['{area} is slow with {load}', 'High memory use in {area} under {load}'],
  security: ['{area} leaks details in error messages', 'Harden {area} against {attack}'],
  ci: ['Flaky test: {area} times out on CI', 'CI: cache dependencies for the {area} job'],
  question: ['How do I configure {area} for {feature}?', 'Is {area} safe to use with {feature}?'],
};

const EVENTS = [
  'a password reset',
  'the session expires',
  'the page is reloaded',
  'the network drops',
  'two tabs are open',
  'an empty input',
  'a config reload',
  'a retry',
];
const FEATURES = [
  'keyboard shortcuts',
  'pagination',
  'a dry-run mode',
  'custom timeouts',
  'localisation',
  'streaming responses',
  'an opt-out flag',
];
const LOADS = ['10k items', 'large payloads', 'many concurrent users', 'a cold cache'];
const ATTACKS = ['timing attacks', 'header injection', 'oversized requests', 'replayed tokens'];
const ENVIRONMENTS = ['staging', 'Firefox 128', 'Safari 17', 'Node 20', 'Linux arm64', 'production'];

const COMMENTS = [
  'I can reproduce this on {env}.',
  'Same here on {env}; it started after the last release.',
  'Looks related to #{other}.',
  'Would a PR that adds a regression test for {area} be welcome?',
  'I had a look: the problem is in how {area} handles {event}.',
  '+1, we see this in {env} too.',
  'Could you share the full log output? I cannot reproduce it on {env}.',
  'Thanks for the report! Adding this to the next milestone.',
  'Workaround until this is fixed: restart after {event}.',
  'This is on my list for this week.',
];

/** The generated text and labels of one issue. */
export interface IssueText {
  title: string;
  body: string;
  labels: string[];
}

/** A seeded issue about one of `areas`. */
export function createIssueText(random: Random, areas: readonly string[]): IssueText {
  const kind = random.pick(KINDS);
  const area = random.pick(areas);
  const title = capitalise(fill(random.pick(TITLES[kind]), random, area, 0));
  const labels = [labelOf(kind)];
  if (random.chance(0.15)) labels.push('good first issue');
  if (random.chance(0.1)) labels.push('help wanted');
  return { title, body: bodyOf(kind, random, area), labels };
}

/** A seeded comment on an issue about `area`; `other` is another issue number to refer to. */
export function createCommentText(random: Random, area: string, other: number): string {
  return fill(random.pick(COMMENTS), random, area, other);
}

function labelOf(kind: IssueKind): string {
  const labels: Record<IssueKind, string> = {
    bug: 'bug',
    feature: 'enhancement',
    docs: 'documentation',
    performance: 'performance',
    security: 'security',
    ci: 'ci',
    question: 'question',
  };
  return labels[kind];
}

function bodyOf(kind: IssueKind, random: Random, area: string): string {
  if (kind === 'bug' || kind === 'performance' || kind === 'ci') {
    return fill(
      '### Steps to reproduce\n\n1. Open {area}\n2. Trigger {event}\n3. Watch the result\n\n' +
        '### Expected\n\n{area} keeps working.\n\n### Actual\n\nIt fails on {env}.\n',
      random,
      area,
      0,
    );
  }
  if (kind === 'question') return fill('We use {area} with {feature}. Is that supported?\n', random, area, 0);
  return fill(
    '### Motivation\n\nUsers of {area} keep asking for {feature}.\n\n### Proposal\n\nAdd it behind a flag.\n',
    random,
    area,
    0,
  );
}

function fill(template: string, random: Random, area: string, other: number): string {
  const values: Record<string, () => string> = {
    area: () => area,
    event: () => random.pick(EVENTS),
    feature: () => random.pick(FEATURES),
    load: () => random.pick(LOADS),
    attack: () => random.pick(ATTACKS),
    env: () => random.pick(ENVIRONMENTS),
    other: () => String(other),
  };
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => values[name]?.() ?? name);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
