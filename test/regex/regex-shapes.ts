// The shapes that make a backtracking regex engine (V8's Irregexp) take more than linear time, found
// by construction on the parsed tree. A pattern without them matches in time linear in the input.
//
// The rules, each a sufficient condition for super-linear backtracking that the check rejects:
// 1. nested repeat: a repeat that may run twice or more over a body that can match strings of
//    different lengths, unless every iteration begins with a delimiter character the rest of the body
//    never matches (`(?:,\s*\w+)*` is fine: each `,` starts an iteration); `(a+)+`, `(\d{1,3})+`.
// 2. ambiguous alternation in a repeat: options whose first characters overlap, inside a repeat
//    that may run twice or more (`(?:\r\n|\r)+`: `\r` then `\n`... can be split two ways).
// 3. overlapping loops: two unbounded repeats in sequence whose character sets overlap, where what
//    lies between them can match characters of that overlap, and a later part can fail (`\d+\d+$`,
//    `(.+)(.+)$`): the split between them is tried in every position.
// 4. unanchored loop: without `^` (or the `y` flag) the engine retries at every start, which is an
//    implicit `[\s\S]*?` before the pattern; rule 3 between it and an unbounded repeat that a failing
//    part follows (`\s*\n`, `\$\{[^}]*\}` on `${${${...`, `\/+$`).
// 5. backreferences, and unbounded repeats inside lookarounds (evaluated again at every position).
// Character sets are over-approximated (Unicode properties are "any character"; `i` folds ASCII
// only), so a finding can be a false alarm, never a miss of these shapes: a false alarm is reviewed
// into the exception list with its reason.

import { ANY, CharSet, type RegexNode } from './regex-syntax.ts';

type Repeat = Extract<RegexNode, { kind: 'repeat' }>;

/** One super-linear shape found: which rule, and where in words. */
export interface Finding {
  rule:
    | 'nested repeat'
    | 'ambiguous alternation'
    | 'overlapping loops'
    | 'unanchored loop'
    | 'backreference'
    | 'loop in lookaround';
  detail: string;
}

/** Every super-linear shape of a pattern (empty: linear by construction). */
export function findSuperLinearShapes(tree: RegexNode, flags: string): Finding[] {
  const findings: Finding[] = [];
  walk(tree, false, findings, false);
  const isAnchored = flags.includes('y') || alternativesOf(tree).every((alt) => startsAnchored(alt, flags));
  if (!isAnchored) {
    for (const alternative of alternativesOf(tree)) {
      if (startsAnchored(alternative, flags)) continue;
      // The implicit loop matches any character, so every loop it can reach overlaps it.
      const items = itemsOf(alternative);
      for (const [j, head] of followers(items, -1, ANY, false)) {
        if (isFailableAfter(items, j, head, false))
          findings.push({
            rule: 'unanchored loop',
            detail: `${describe(head)} can start at every position of a run it also matches, and a later part can fail`,
          });
      }
    }
  }
  return dedupe(findings);
}

function walk(node: RegexNode, isRestFailable: boolean, out: Finding[], isInRepeat: boolean): void {
  switch (node.kind) {
    case 'seq':
      node.items.forEach((item, k) => {
        const rest = isRestFailable || node.items.slice(k + 1).some((later) => !isTransparent(later));
        walk(item, rest, out, isInRepeat);
      });
      checkOverlappingLoops(node.items, isRestFailable, out);
      return;
    case 'alt':
      if (isInRepeat && hasOverlappingOptions(node))
        out.push({
          rule: 'ambiguous alternation',
          detail: 'options that begin with the same character, inside a repeat',
        });
      for (const option of node.options) walk(option, isRestFailable, out, isInRepeat);
      return;
    case 'repeat': {
      const isMany = node.max >= 2;
      if (isMany && !isDeterministicBody(node.body))
        out.push({
          rule: 'nested repeat',
          detail: `${describe(node)} repeats a body of varying length without a delimiter`,
        });
      walk(node.body, isRestFailable || node.min >= 2, out, isInRepeat || isMany);
      return;
    }
    case 'look':
      if (containsLoop(node.body))
        out.push({ rule: 'loop in lookaround', detail: 'an unbounded repeat inside a lookaround' });
      walk(node.body, true, out, isInRepeat);
      return;
    case 'backref':
      out.push({ rule: 'backreference', detail: 'a backreference (not a regular language)' });
      return;
    case 'char':
    case 'assert':
      return;
  }
}

/** Rule 3 on one sequence: a loop ending item i, a loop starting item j > i, overlapping through what lies between. */
function checkOverlappingLoops(items: readonly RegexNode[], isRestFailable: boolean, out: Finding[]): void {
  items.forEach((item, i) => {
    for (const { loop: tail, path: after } of loopsWithPath(item, 'suffix')) {
      for (const [j, head] of followers(items, i, charsOf(tail), isRestFailable)) {
        if (head === tail || !after.every((node) => admits(node, charsOf(tail).intersect(charsOf(head)))))
          continue;
        if (!isFailableAfter(items, j, head, isRestFailable)) continue;
        out.push({
          rule: 'overlapping loops',
          detail: `${describe(tail)} then ${describe(head)} over shared characters`,
        });
      }
    }
  });
}

/**
 * The loops in items after `i` that a run of `over` can reach: everything before such a loop (items
 * between, and the part of its own item before it) is zero-width or can match a character of `over`
 * and the loop's own set.
 */
function followers(
  items: readonly RegexNode[],
  i: number,
  over: CharSet,
  isRestFailable: boolean,
): Array<[number, Repeat]> {
  const found: Array<[number, Repeat]> = [];
  const passed: RegexNode[] = [];
  for (let j = i + 1; j < items.length; j++) {
    const item = items[j]!;
    for (const { loop, path } of loopsWithPath(item, 'prefix')) {
      const shared = over.intersect(scanChars(items, j, loop, isRestFailable));
      if (!shared.isEmpty && [...passed, ...path].every((before) => admits(before, shared)))
        found.push([j, loop]);
    }
    passed.push(item);
    if (!admits(item, over)) break;
  }
  return found;
}

/**
 * The characters a loop can scan over from one start. A lazy loop that is item j, followed by one
 * character and nothing that can fail, stops at the first occurrence of that character (`"(.*?)"`).
 */
function scanChars(items: readonly RegexNode[], j: number, loop: Repeat, isRestFailable: boolean): CharSet {
  const stop = items[j + 1];
  const isStoppedLazy =
    loop.isLazy &&
    items[j] === loop &&
    stop?.kind === 'char' &&
    !isRestFailable &&
    items.slice(j + 2).every(isTransparent);
  return isStoppedLazy ? charsOf(loop).intersect(stop.set.complement()) : charsOf(loop);
}

/**
 * Every unbounded loop inside `node` with the nodes a match must pass through inside `node` before it
 * (`prefix`) or after it (`suffix`).
 */
function loopsWithPath(
  node: RegexNode,
  side: 'prefix' | 'suffix',
): Array<{ loop: Repeat; path: RegexNode[] }> {
  switch (node.kind) {
    case 'repeat': {
      const inner = loopsWithPath(node.body, side);
      return node.max === Infinity ? [{ loop: node, path: [] }, ...inner] : inner;
    }
    case 'seq':
      return node.items.flatMap((item, k) =>
        loopsWithPath(item, side).map(({ loop, path }) => ({
          loop,
          path:
            side === 'prefix' ? [...node.items.slice(0, k), ...path] : [...path, ...node.items.slice(k + 1)],
        })),
      );
    case 'alt':
      return node.options.flatMap((option) => loopsWithPath(option, side));
    default:
      return [];
  }
}

function admits(node: RegexNode, chars: CharSet): boolean {
  return minLength(node) === 0 || !charsOf(node).intersect(chars).isEmpty;
}

/** Whether something after `head` (inside item j, after it, or after the sequence) can fail. */
function isFailableAfter(
  items: readonly RegexNode[],
  j: number,
  head: Repeat,
  isRestFailable: boolean,
): boolean {
  if (!tailLoops(items[j]!).includes(head)) return true;
  return isRestFailable || items.slice(j + 1).some((later) => !isTransparent(later));
}

/** A body whose iterations cannot be split two ways: fixed length, or led by a delimiter only it matches. */
function isDeterministicBody(body: RegexNode): boolean {
  if (minLength(body) === maxLength(body)) return true;
  const items = itemsOf(body);
  const lead = items[0];
  if (lead?.kind !== 'char') return false;
  const rest = items.slice(1).reduce((set, item) => set.union(charsOf(item)), new CharSet([]));
  return lead.set.intersect(rest).isEmpty;
}

function hasOverlappingOptions(node: Extract<RegexNode, { kind: 'alt' }>): boolean {
  const firsts = node.options.map(firstChars);
  return firsts.some((a, i) => firsts.some((b, k) => k > i && !a.intersect(b).isEmpty));
}

function startsAnchored(node: RegexNode, flags: string): boolean {
  if (flags.includes('m')) return false;
  const first = itemsOf(node)[0];
  return first?.kind === 'assert' && first.anchor === 'start';
}

function alternativesOf(node: RegexNode): RegexNode[] {
  return node.kind === 'alt' ? node.options : [node];
}

function itemsOf(node: RegexNode): readonly RegexNode[] {
  return node.kind === 'seq' ? node.items : [node];
}

/** Unbounded repeats that can consume the last character of a match of `node`. */
function tailLoops(node: RegexNode): Repeat[] {
  return edgeLoops(node, 'tail');
}

function edgeLoops(node: RegexNode, edge: 'head' | 'tail'): Repeat[] {
  switch (node.kind) {
    case 'seq': {
      const items = edge === 'head' ? node.items : [...node.items].reverse();
      const loops: Repeat[] = [];
      for (const item of items) {
        loops.push(...edgeLoops(item, edge));
        if (minLength(item) > 0) break;
      }
      return loops;
    }
    case 'alt':
      return node.options.flatMap((option) => edgeLoops(option, edge));
    case 'repeat':
      return node.max === Infinity ? [node, ...edgeLoops(node.body, edge)] : edgeLoops(node.body, edge);
    default:
      return [];
  }
}

function containsLoop(node: RegexNode): boolean {
  if (node.kind === 'repeat') return node.max === Infinity || containsLoop(node.body);
  if (node.kind === 'seq') return node.items.some(containsLoop);
  if (node.kind === 'alt') return node.options.some(containsLoop);
  if (node.kind === 'look') return containsLoop(node.body);
  return false;
}

/** Matches the empty string and can never fail there (no assertion, lookaround or backreference on that path). */
function isTransparent(node: RegexNode): boolean {
  switch (node.kind) {
    case 'seq':
      return node.items.every(isTransparent);
    case 'alt':
      return node.options.some(isTransparent);
    case 'repeat':
      return node.min === 0 || isTransparent(node.body);
    default:
      return false;
  }
}

/** Every character the node can consume (lookarounds consume none). */
function charsOf(node: RegexNode): CharSet {
  switch (node.kind) {
    case 'char':
      return node.set;
    case 'seq':
      return node.items.reduce((set, item) => set.union(charsOf(item)), new CharSet([]));
    case 'alt':
      return node.options.reduce((set, option) => set.union(charsOf(option)), new CharSet([]));
    case 'repeat':
      return charsOf(node.body);
    case 'backref':
      return ANY;
    default:
      return new CharSet([]);
  }
}

/** The characters a non-empty match of `node` can begin with. */
function firstChars(node: RegexNode): CharSet {
  switch (node.kind) {
    case 'char':
      return node.set;
    case 'seq': {
      let set = new CharSet([]);
      for (const item of node.items) {
        set = set.union(firstChars(item));
        if (minLength(item) > 0) break;
      }
      return set;
    }
    case 'alt':
      return node.options.reduce((set, option) => set.union(firstChars(option)), new CharSet([]));
    case 'repeat':
      return firstChars(node.body);
    case 'backref':
      return ANY;
    default:
      return new CharSet([]);
  }
}

function minLength(node: RegexNode): number {
  switch (node.kind) {
    case 'char':
      return 1;
    case 'seq':
      return node.items.reduce((sum, item) => sum + minLength(item), 0);
    case 'alt':
      return Math.min(...node.options.map(minLength));
    case 'repeat':
      return node.min * minLength(node.body);
    default:
      return 0;
  }
}

function maxLength(node: RegexNode): number {
  switch (node.kind) {
    case 'char':
      return 1;
    case 'seq':
      return node.items.reduce((sum, item) => sum + maxLength(item), 0);
    case 'alt':
      return Math.max(...node.options.map(maxLength));
    case 'repeat': {
      const body = maxLength(node.body);
      return body === 0 ? 0 : node.max * body;
    }
    case 'backref':
      return Infinity;
    default:
      return 0;
  }
}

function describe(node: Repeat): string {
  const bound = node.max === Infinity ? `${node.min},` : `${node.min},${node.max}`;
  return `a repeat {${bound}}`;
}

function dedupe(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = `${finding.rule}: ${finding.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
