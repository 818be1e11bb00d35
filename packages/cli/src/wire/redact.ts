// Secrets out of recordings and traces: credential headers, credential-named JSON keys, token query
// parameters and command-line flags by default, and any value a `--redact <jsonpath>` names. Only
// the recorded copy changes; what is forwarded or sent stays as it was.

import { UsageError } from '../exit-code.ts';

/** What a redacted value becomes. */
export const REDACTED = '[redacted]';

/** Header names whose values are credentials (lower case), besides any name matching SECRET_NAME. */
const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'dpop',
]);

/** A header, key, parameter or flag name that says it holds a secret. */
const SECRET_NAME =
  /^(?:x-)?(?:access[-_]?token|refresh[-_]?token|id[-_]?token|auth[-_]?token|token|password|passwd|secret|client[-_]?secret|api[-_]?key|apikey|private[-_]?key|session[-_]?token|authorization|cookie|code[-_]?verifier)$/i;

/** One step of a parsed JSONPath. */
type PathStep =
  | { kind: 'child'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'wildcard' }
  | { kind: 'descend'; name: string | undefined };

/** Applies the redaction rules to headers, messages, URLs and command lines. */
export class Redactor {
  readonly #paths: PathStep[][];

  /** `paths`: JSONPath expressions (`$.params.arguments.password`, `$..ssn`, `$.result.content[*].text`). */
  constructor(paths: readonly string[] = []) {
    this.#paths = paths.map(parseJsonPath);
  }

  /** A copy of `headers` with credential values replaced (an Authorization scheme is kept). */
  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      if (!SECRET_HEADERS.has(lower) && !SECRET_NAME.test(lower)) out[name] = value;
      else if (lower.endsWith('authorization') && /^\S+\s+\S/.test(value))
        out[name] = `${value.split(/\s/, 1)[0]!} ${REDACTED}`;
      else out[name] = REDACTED;
    }
    return out;
  }

  /**
   * A JSON-RPC message (or any JSON value) with secrets replaced. `value` itself is never changed;
   * it is returned as it is when nothing in it is secret (no copy per recorded message).
   */
  message<T>(value: T): T {
    if (this.#paths.length === 0) return redactKeys(value) as T;
    // The paths replace in place, so they need a copy of their own.
    const copy = redactKeys(structuredClone(value)) as T;
    for (const path of this.#paths) applyPath(copy, path);
    return copy;
  }

  /** `url` with the values of credential-named query parameters and any userinfo password replaced. */
  url(url: string): string {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return url;
    }
    if (parsed.password !== '') parsed.password = REDACTED;
    for (const name of [...parsed.searchParams.keys()])
      if (SECRET_NAME.test(name)) parsed.searchParams.set(name, REDACTED);
    return parsed.href;
  }

  /** A command line with the values of credential flags (`--token x`, `--api-key=x`) replaced. */
  args(args: readonly string[]): string[] {
    const out: string[] = [];
    for (let index = 0; index < args.length; index++) {
      const arg = args[index]!;
      const flag = /^(--?)([A-Za-z][\w-]*)(=.*)?$/.exec(arg);
      if (flag === null || !SECRET_NAME.test(flag[2]!)) {
        out.push(/^https?:\/\//i.test(arg) ? this.url(arg) : arg);
        continue;
      }
      if (flag[3] !== undefined) out.push(`${flag[1]!}${flag[2]!}=${REDACTED}`);
      else {
        out.push(arg);
        if (index + 1 < args.length) {
          out.push(REDACTED);
          index++;
        }
      }
    }
    return out;
  }
}

/** `value` with credential-named keys' scalars replaced; copied only along the way to a replacement. */
function redactKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item = redactKeys(value[index]);
      if (item !== value[index]) (copy ??= [...value])[index] = item;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const redacted =
      SECRET_NAME.test(key) && item !== null && typeof item !== 'object' ? REDACTED : redactKeys(item);
    if (redacted !== item) (copy ??= { ...value })[key] = redacted;
  }
  return copy ?? value;
}

/**
 * Parses the JSONPath subset `--redact` takes: `$`, then `.name`, `['name']`, `[3]`, `[*]`, `.*`
 * and `..name` (any depth). Throws UsageError for anything else, saying what is accepted.
 */
export function parseJsonPath(path: string): PathStep[] {
  const fail = (why: string): never => {
    throw new UsageError(
      `--redact ${JSON.stringify(path)}: ${why}; use a JSONPath such as $.params.arguments.password, $..token or $.result.content[*].text`,
    );
  };
  if (!path.startsWith('$')) fail('a path starts with $');
  const steps: PathStep[] = [];
  let rest = path.slice(1);
  while (rest !== '') {
    let match: RegExpExecArray | null;
    if ((match = /^\.\.([A-Za-z_$][\w$-]*|\*)/.exec(rest)))
      steps.push({ kind: 'descend', name: match[1] === '*' ? undefined : match[1]! });
    else if ((match = /^\.([A-Za-z_$][\w$-]*)/.exec(rest))) steps.push({ kind: 'child', name: match[1]! });
    else if ((match = /^(?:\.\*|\[\*\])/.exec(rest))) steps.push({ kind: 'wildcard' });
    else if ((match = /^\[(\d+)\]/.exec(rest))) steps.push({ kind: 'index', index: Number(match[1]) });
    else if ((match = /^\[(?:'([^']*)'|"([^"]*)")\]/.exec(rest)))
      steps.push({ kind: 'child', name: match[1] ?? match[2]! });
    else return fail(`cannot read ${JSON.stringify(rest)}`);
    rest = rest.slice(match[0].length);
  }
  if (steps.length === 0) fail('the whole message cannot be redacted; name a field');
  return steps;
}

/** Replaces every value `steps` reaches inside `root` (in place). */
function applyPath(root: unknown, steps: readonly PathStep[]): void {
  const [step, ...rest] = steps;
  if (step === undefined || typeof root !== 'object' || root === null) return;
  const container = root as Record<string, unknown>;
  const visit = (key: string): void => {
    if (!(key in container)) return;
    if (rest.length === 0) container[key] = REDACTED;
    else applyPath(container[key], rest);
  };
  switch (step.kind) {
    case 'child':
      if (!Array.isArray(root)) visit(step.name);
      return;
    case 'index':
      if (Array.isArray(root)) visit(String(step.index));
      return;
    case 'wildcard':
      for (const key of Object.keys(container)) visit(key);
      return;
    case 'descend':
      for (const key of Object.keys(container)) {
        if (step.name === undefined || key === step.name) visit(key);
        // Keep descending below (a match's own children may match again).
        if (typeof container[key] === 'object') applyPath(container[key], steps);
      }
  }
}
