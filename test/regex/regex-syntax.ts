// A parser for JavaScript regular expression patterns into the small tree the linear-time check reads:
// character sets, sequences, alternations, repeats, assertions, lookarounds and backreferences.
// It reads the whole ES2024 syntax the repository uses; anything else is an error, never a guess.

/** A set of code points as sorted, disjoint, inclusive ranges. */
export class CharSet {
  readonly ranges: ReadonlyArray<readonly [number, number]>;

  constructor(ranges: Iterable<readonly [number, number]>) {
    const sorted = [...ranges].filter(([lo, hi]) => lo <= hi).sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [];
    for (const [lo, hi] of sorted) {
      const last = merged.at(-1);
      if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
      else merged.push([lo, hi]);
    }
    this.ranges = merged;
  }

  static of(...codes: number[]): CharSet {
    return new CharSet(codes.map((code) => [code, code] as const));
  }

  get isEmpty(): boolean {
    return this.ranges.length === 0;
  }

  union(other: CharSet): CharSet {
    return new CharSet([...this.ranges, ...other.ranges]);
  }

  intersect(other: CharSet): CharSet {
    const out: Array<[number, number]> = [];
    for (const [a, b] of this.ranges)
      for (const [c, d] of other.ranges)
        if (Math.max(a, c) <= Math.min(b, d)) out.push([Math.max(a, c), Math.min(b, d)]);
    return new CharSet(out);
  }

  complement(): CharSet {
    const out: Array<[number, number]> = [];
    let next = 0;
    for (const [lo, hi] of this.ranges) {
      if (lo > next) out.push([next, lo - 1]);
      next = hi + 1;
    }
    if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
    return new CharSet(out);
  }

  /** The set with the other case of every ASCII letter added (the `i` flag; other scripts are left as they are). */
  withAsciiCases(): CharSet {
    const extra: Array<[number, number]> = [];
    for (const [lo, hi] of this.ranges) {
      for (let code = Math.max(lo, 0x41); code <= Math.min(hi, 0x7a); code++) {
        if (code <= 0x5a) extra.push([code + 32, code + 32]);
        else if (code >= 0x61) extra.push([code - 32, code - 32]);
      }
    }
    return new CharSet([...this.ranges, ...extra]);
  }
}

const MAX_CODE_POINT = 0x10ffff;
export const ANY = new CharSet([[0, MAX_CODE_POINT]]);
const DIGIT = new CharSet([[0x30, 0x39]]);
const WORD = new CharSet([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);
const SPACE = new CharSet([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
const LINE_TERMINATORS = CharSet.of(0x0a, 0x0d, 0x2028, 0x2029);

/** The tree of a pattern. Lengths are in characters; `max` is Infinity for an unbounded repeat. */
export type RegexNode =
  | { kind: 'char'; set: CharSet }
  | { kind: 'seq'; items: RegexNode[] }
  | { kind: 'alt'; options: RegexNode[] }
  | { kind: 'repeat'; body: RegexNode; min: number; max: number; isLazy: boolean }
  | { kind: 'assert'; anchor: 'start' | 'end' | 'boundary' }
  | { kind: 'look'; body: RegexNode }
  | { kind: 'backref' };

/** Parses `pattern` (the text between the slashes) under `flags`; throws SyntaxError on what it cannot read. */
export function parseRegex(pattern: string, flags: string): RegexNode {
  const parser = new Parser(pattern, flags);
  const tree = parser.disjunction();
  if (!parser.isDone) throw parser.error('unexpected ")"');
  return tree;
}

class Parser {
  #i = 0;
  readonly #text: string;
  readonly #isUnicode: boolean;
  readonly #isIgnoreCase: boolean;
  readonly #isDotAll: boolean;

  constructor(text: string, flags: string) {
    this.#text = text;
    this.#isUnicode = flags.includes('u') || flags.includes('v');
    this.#isIgnoreCase = flags.includes('i');
    this.#isDotAll = flags.includes('s');
  }

  get isDone(): boolean {
    return this.#i >= this.#text.length;
  }

  error(what: string): SyntaxError {
    return new SyntaxError(`/${this.#text}/ at ${this.#i}: ${what}`);
  }

  disjunction(): RegexNode {
    const options = [this.#alternative()];
    while (this.#peek() === '|') {
      this.#i++;
      options.push(this.#alternative());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  #alternative(): RegexNode {
    const items: RegexNode[] = [];
    while (!this.isDone && this.#peek() !== '|' && this.#peek() !== ')') items.push(this.#term());
    return items.length === 1 ? items[0]! : { kind: 'seq', items };
  }

  #term(): RegexNode {
    const char = this.#peek();
    if (char === '^' || char === '$') {
      this.#i++;
      return { kind: 'assert', anchor: char === '^' ? 'start' : 'end' };
    }
    if (this.#text.startsWith('\\b', this.#i) || this.#text.startsWith('\\B', this.#i)) {
      this.#i += 2;
      return { kind: 'assert', anchor: 'boundary' };
    }
    const atom = this.#atom();
    return atom.kind === 'look' ? atom : this.#quantified(atom);
  }

  #quantified(atom: RegexNode): RegexNode {
    const char = this.#peek();
    let bounds: [number, number] | undefined;
    if (char === '*') bounds = [0, Infinity];
    else if (char === '+') bounds = [1, Infinity];
    else if (char === '?') bounds = [0, 1];
    if (bounds !== undefined) this.#i++;
    else if (char === '{') {
      const braces = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.#text.slice(this.#i));
      if (braces === null) return atom; // a literal `{` outside unicode mode
      const min = Number(braces[1]);
      bounds = [min, braces[2] === undefined ? min : braces[3] === '' ? Infinity : Number(braces[3])];
      this.#i += braces[0].length;
    } else return atom;
    const isLazy = this.#peek() === '?';
    if (isLazy) this.#i++;
    return { kind: 'repeat', body: atom, min: bounds[0], max: bounds[1], isLazy };
  }

  #atom(): RegexNode {
    const char = this.#peek();
    if (char === '(') return this.#group();
    if (char === '[') return { kind: 'char', set: this.#cased(this.#class()) };
    if (char === '.') {
      this.#i++;
      return { kind: 'char', set: this.#isDotAll ? ANY : LINE_TERMINATORS.complement() };
    }
    if (char === '\\') return this.#escapeAtom();
    if (char === '*' || char === '+' || char === '?') throw this.error('nothing to repeat');
    const code = this.#text.codePointAt(this.#i)!;
    this.#i += code > 0xffff ? 2 : 1;
    return { kind: 'char', set: this.#cased(CharSet.of(code)) };
  }

  #group(): RegexNode {
    this.#i++;
    let isLook = false;
    if (this.#text.startsWith('?:', this.#i)) this.#i += 2;
    else if (/^\?<?[=!]/.test(this.#text.slice(this.#i))) {
      isLook = true;
      this.#i += this.#text[this.#i + 1] === '<' ? 3 : 2;
    } else if (this.#text.startsWith('?<', this.#i)) {
      const close = this.#text.indexOf('>', this.#i);
      if (close < 0) throw this.error('unterminated group name');
      this.#i = close + 1;
    } else if (this.#peek() === '?') throw this.error('unsupported group');
    const body = this.disjunction();
    if (this.#peek() !== ')') throw this.error('unterminated group');
    this.#i++;
    return isLook ? { kind: 'look', body } : body;
  }

  #escapeAtom(): RegexNode {
    const next = this.#text[this.#i + 1] ?? '';
    if (/[1-9]/.test(next) || (next === 'k' && this.#text[this.#i + 2] === '<')) {
      this.#i += 2;
      if (next === 'k') this.#i = this.#text.indexOf('>', this.#i) + 1;
      else while (/\d/.test(this.#peek())) this.#i++;
      return { kind: 'backref' };
    }
    return { kind: 'char', set: this.#cased(this.#escape()) };
  }

  /** One escape after `\`, in or out of a class: a class escape, a control or hex escape, or the character itself. */
  #escape(): CharSet {
    this.#i++;
    const char = this.#text[this.#i++] ?? '';
    switch (char) {
      case 'd':
        return DIGIT;
      case 'D':
        return DIGIT.complement();
      case 'w':
        return WORD;
      case 'W':
        return WORD.complement();
      case 's':
        return SPACE;
      case 'S':
        return SPACE.complement();
      case 't':
        return CharSet.of(0x09);
      case 'n':
        return CharSet.of(0x0a);
      case 'v':
        return CharSet.of(0x0b);
      case 'f':
        return CharSet.of(0x0c);
      case 'r':
        return CharSet.of(0x0d);
      case '0':
        return CharSet.of(0);
      case 'c':
        return CharSet.of((this.#text.charCodeAt(this.#i++) || 0) % 32);
      case 'x':
        return CharSet.of(this.#hex(2));
      case 'u': {
        if (this.#peek() !== '{') return CharSet.of(this.#hex(4));
        const close = this.#text.indexOf('}', this.#i);
        const code = Number.parseInt(this.#text.slice(this.#i + 1, close), 16);
        this.#i = close + 1;
        return CharSet.of(code);
      }
      case 'p':
      case 'P':
        // A Unicode property: read as any character, the widest set, so overlaps are never missed.
        if (this.#isUnicode && this.#peek() === '{') this.#i = this.#text.indexOf('}', this.#i) + 1;
        return ANY;
      default:
        return CharSet.of(char.codePointAt(0) ?? 0);
    }
  }

  #hex(digits: number): number {
    const text = this.#text.slice(this.#i, this.#i + digits);
    if (!/^[0-9a-fA-F]+$/.test(text) || text.length !== digits) throw this.error('bad hex escape');
    this.#i += digits;
    return Number.parseInt(text, 16);
  }

  #class(): CharSet {
    this.#i++;
    const isNegated = this.#peek() === '^';
    if (isNegated) this.#i++;
    let set = new CharSet([]);
    while (this.#peek() !== ']') {
      if (this.isDone) throw this.error('unterminated class');
      const low = this.#classAtom();
      if (this.#peek() === '-' && this.#text[this.#i + 1] !== ']' && isSingle(low)) {
        this.#i++;
        const high = this.#classAtom();
        if (!isSingle(high)) throw this.error('class range to a class escape');
        set = set.union(new CharSet([[low.ranges[0]![0], high.ranges[0]![0]]]));
      } else set = set.union(low);
    }
    this.#i++;
    return isNegated ? set.complement() : set;
  }

  #classAtom(): CharSet {
    if (this.#peek() === '\\') {
      if (this.#text[this.#i + 1] === 'b') {
        this.#i += 2;
        return CharSet.of(0x08);
      }
      return this.#escape();
    }
    const code = this.#text.codePointAt(this.#i)!;
    this.#i += code > 0xffff ? 2 : 1;
    return CharSet.of(code);
  }

  #cased(set: CharSet): CharSet {
    return this.#isIgnoreCase ? set.withAsciiCases() : set;
  }

  #peek(): string {
    return this.#text[this.#i] ?? '';
  }
}

function isSingle(set: CharSet): boolean {
  return set.ranges.length === 1 && set.ranges[0]![0] === set.ranges[0]![1];
}
