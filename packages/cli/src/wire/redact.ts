// Secrets out of recordings and traces: credential headers, credential-named JSON keys, token query
// parameters and command-line flags by default, and any value a `--redact <jsonpath>` names. Only
// the recorded copy changes; what is forwarded or sent stays as it was.

import { UsageError } from '../exit-code.ts';
import { capDepth, MAX_JSON_DEPTH } from './json-depth.ts';

/** What a redacted value becomes. */
export const REDACTED = '[redacted]';

/** Header names whose values are credentials (lower case), besides any name isSecretName accepts. */
const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'dpop',
]);

/**
 * What a header, key, parameter or flag name holds a secret when it contains, compared lower case
 * with `-` and `_` removed (issue 21): `X-GitHub-Token`, `PRIVATE-TOKEN`, `github_token`,
 * `client_secret`, `x-api-key`, `db_password`, `aws_credentials`, `private_key`, `code_verifier`.
 */
const SECRET_WORD =
  /token|secret|passw(?:or)?d|apikey|authorization|cookie|credential|privatekey|bearer|codeverifier/;

/**
 * Names that contain a SECRET_WORD but are protocol fields, not credentials (same normalization):
 * MCP's `progressToken` and sampling's `maxTokens`, OAuth metadata's `token_endpoint*` and a token
 * response's `token_type`. `Mcp-Session-Id` is not redacted: lint and report tell HTTP sessions
 * apart by it.
 */
const NOT_SECRET: ReadonlySet<string> = new Set([
  'progresstoken',
  'maxtokens',
  'tokentype',
  'tokenendpoint',
  'tokenendpointauthmethod',
  'tokenendpointauthmethodssupported',
  'tokenendpointauthsigningalgvaluessupported',
]);

/** True for a header, key, parameter or flag name that says it holds a secret (see SECRET_WORD). */
function isSecretName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[-_]/g, '');
  return SECRET_WORD.test(normalized) && !NOT_SECRET.has(normalized);
}

/**
 * The OAuth parameters and fields that are credentials in a request or response body (RFC 6749 §4.1.3,
 * RFC 7636 §4.5, RFC 7591 §3.2.1, RFC 7523, RFC 8693), besides isSecretName. In a body only: `code` is
 * a credential in a token request, not in a JSON-RPC error.
 */
const BODY_SECRET_NAME =
  /^(?:code|assertion|client_assertion|subject_token|actor_token|registration_access_token|device_code)$/i;

/**
 * What every secret name (SECRET_WORD) contains (token, passw(or)d, secret, key, authorization, cookie,
 * verifier), or a `\u` escape that could spell one. JSON text without any of these has no key the
 * rules redact, so its walk is skipped; with one (`progressToken`, `keywords`), the walk decides.
 */
const SECRET_HINT = /token|passw|secret|key|authorization|cookie|verifier|credential|bearer|\\u/i;

/** False when JSON `text` cannot contain a credential-named key (its walk can be skipped). */
export function mayNameSecret(text: string): boolean {
  return SECRET_HINT.test(text);
}

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
      if (!SECRET_HEADERS.has(lower) && !isSecretName(lower)) out[name] = value;
      else if (lower.endsWith('authorization') && /^\S+\s+\S/.test(value))
        out[name] = `${value.split(/\s/, 1)[0]!} ${REDACTED}`;
      else out[name] = REDACTED;
    }
    return out;
  }

  /**
   * A JSON-RPC message (or any JSON value) with secrets replaced. `value` itself is never changed:
   * what is replaced is copied along the way to it, and `value` is returned as it is when nothing in
   * it is secret (no copy per recorded message). `text`, the JSON `value` was parsed from, lets the
   * key rules skip the walk when no credential-named key can be spelled in it ({@link mayNameSecret}).
   */
  message<T>(value: T, text?: string): T {
    let redacted = text === undefined || mayNameSecret(text) ? redactKeys(value) : value;
    for (const path of this.#paths) redacted = replaceAt(redacted, path, 0);
    return redacted as T;
  }

  /**
   * An HTTP body that is no JSON-RPC (an OAuth token request or response, a registration) with its
   * credentials replaced: form parameters and JSON keys named by isSecretName or the OAuth body
   * parameters (`code`, `code_verifier`, `client_secret`, `refresh_token`, `access_token`, ...); the
   * `--redact` paths apply to a JSON body too. Other text is kept as it is.
   */
  body(text: string, contentType = ''): string {
    const isSecret = (name: string): boolean => isSecretName(name) || BODY_SECRET_NAME.test(name);
    if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
      const form = new URLSearchParams(text);
      let isChanged = false;
      for (const name of new Set(form.keys()))
        if (isSecret(name)) {
          form.set(name, REDACTED);
          isChanged = true;
        }
      return isChanged ? form.toString() : text;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return text;
    }
    // A body nested deeper than MAX_JSON_DEPTH is recorded cut there (issue 21).
    const value = capDepth(parsed, { text });
    let redacted = redactKeys(value, isSecret);
    for (const path of this.#paths) redacted = replaceAt(redacted, path, 0);
    return redacted === parsed ? text : JSON.stringify(redacted);
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
      if (isSecretName(name)) parsed.searchParams.set(name, REDACTED);
    return parsed.href;
  }

  /** A command line with the values of credential flags (`--token x`, `--api-key=x`) replaced. */
  args(args: readonly string[]): string[] {
    const out: string[] = [];
    for (let index = 0; index < args.length; index++) {
      const arg = args[index]!;
      const flag = /^(--?)([A-Za-z][\w-]*)(=.*)?$/.exec(arg);
      if (flag === null || !isSecretName(flag[2]!)) {
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

/**
 * `value` with credential-named keys' scalars replaced; copied only along the way to a replacement.
 * Recursive, so depth-capped: nothing below `depth` MAX_JSON_DEPTH is visited (callers cut what is
 * deeper first, see capDepth).
 */
function redactKeys(value: unknown, isSecret: (key: string) => boolean = isSecretName, depth = 1): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_JSON_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item = redactKeys(value[index], isSecret, depth + 1);
      if (item !== value[index]) (copy ??= [...value])[index] = item;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const redacted =
      isSecret(key) && item !== null && typeof item !== 'object'
        ? REDACTED
        : redactKeys(item, isSecret, depth + 1);
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

/**
 * `node` with every value `steps` (from `at` on) reaches replaced, copied only along the way to a
 * replacement (`node` itself is never changed). Only own members count: a path never adds one.
 * Recursive, so depth-capped like redactKeys: nothing below `depth` MAX_JSON_DEPTH is visited.
 */
function replaceAt(node: unknown, steps: readonly PathStep[], at: number, depth = 1): unknown {
  const step = steps[at];
  if (step === undefined || typeof node !== 'object' || node === null || depth > MAX_JSON_DEPTH) return node;
  const original = node as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  const get = (key: string): unknown => (copy ?? original)[key];
  const set = (key: string, value: unknown): void => {
    if (value === get(key)) return;
    copy ??= (Array.isArray(node) ? [...(node as unknown[])] : { ...original }) as Record<string, unknown>;
    copy[key] = value;
  };
  const visit = (key: string): void => {
    if (!Object.hasOwn(original, key)) return;
    set(key, at === steps.length - 1 ? REDACTED : replaceAt(get(key), steps, at + 1, depth + 1));
  };
  switch (step.kind) {
    case 'child':
      if (!Array.isArray(node)) visit(step.name);
      break;
    case 'index':
      if (Array.isArray(node)) visit(String(step.index));
      break;
    case 'wildcard':
      for (const key of Object.keys(original)) visit(key);
      break;
    case 'descend':
      for (const key of Object.keys(original)) {
        if (step.name === undefined || key === step.name) visit(key);
        // Keep descending below (a match's own children may match again).
        set(key, replaceAt(get(key), steps, at, depth + 1));
      }
  }
  return copy ?? node;
}
