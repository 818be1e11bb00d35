// The host side of the skills extension (S26-SKILL-6): enumerate a server's skills, fetch a file only
// when asked (no prefetch), and verify every read against the entry (size, digest, frontmatter).

import type { Client } from '../../client/client.ts';
import type { RequestOptions } from '../../protocol/session.ts';
import type { ReadResourceResult } from '../../protocol/types/index.ts';
import { toCanonicalJson } from '../../validation/index.ts';
import { sha256Digest } from './digest.ts';
import { parseFrontmatter, splitFrontmatter } from './frontmatter.ts';
import {
  SKILLS_EXTENSION_ID,
  isJsonObject,
  type DirectoryResource,
  type GetSkillResult,
  type ListSkillsResult,
  type ReadResourceDirectoryResult,
  type Skill,
} from './skills-protocol.ts';

/** Why a skill or one of its files was refused. */
export type SkillVerificationReason = 'entry' | 'unlisted' | 'size' | 'digest' | 'frontmatter';

/**
 * A local error: a skill entry is malformed, or a file read does not match its entry. The host must
 * not use the content (and, for SKILL.md, not the skill). Never sent on the wire.
 */
export class SkillVerificationError extends Error {
  readonly code = 'SKILL_VERIFICATION';
  readonly reason: SkillVerificationReason;
  readonly uri: string;

  constructor(reason: SkillVerificationReason, uri: string, message: string) {
    super(message);
    this.name = 'SkillVerificationError';
    this.reason = reason;
    this.uri = uri;
  }
}

/** A verified skill file. */
export interface SkillFile {
  uri: string;
  mimeType?: string;
  /** Exactly the bytes the digest covers. */
  bytes: Uint8Array;
  /** The text, when the server sent text. */
  text?: string;
  /** For the skill's own SKILL.md: its frontmatter (equal to the entry's) and its markdown body. */
  frontmatter?: Record<string, unknown>;
  body?: string;
}

/** Options of a SkillsClient. */
export interface SkillsClientOptions {
  /** A full YAML parser for frontmatter, instead of the built-in reader of the common subset. */
  parseFrontmatter?: (yaml: string) => Record<string, unknown>;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * Skills of the server a Client is connected to. Nothing is read until `read` is called; every read
 * is checked before it is returned. Approval, origin tagging and what to load stay with the host.
 */
export class SkillsClient {
  readonly #client: Client;
  readonly #parse: (yaml: string) => Record<string, unknown>;

  constructor(client: Client, options: SkillsClientOptions = {}) {
    this.#client = client;
    this.#parse = options.parseFrontmatter ?? parseFrontmatter;
  }

  /** True if the connected server declared the extension. */
  get isSupported(): boolean {
    return this.#client.serverCapabilities?.extensions?.[SKILLS_EXTENSION_ID] !== undefined;
  }

  /** True if the server serves `resources/directory/read`. */
  get hasDirectoryRead(): boolean {
    return this.#client.serverCapabilities?.extensions?.[SKILLS_EXTENSION_ID]?.directoryRead === true;
  }

  /**
   * Every skill the server lists (all pages). Resolves with [] if the server does not declare the
   * extension; rejects with SkillVerificationError (`entry`) naming the first malformed entry.
   */
  async list(options?: RequestOptions): Promise<Skill[]> {
    if (!this.isSupported) return [];
    const skills: Skill[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const params = cursor === undefined ? {} : { cursor };
      const result = await this.#client.request<ListSkillsResult>('skills/list', params, options);
      for (const entry of Array.isArray(result.skills) ? result.skills : []) skills.push(checkEntry(entry));
      if (typeof result.nextCursor !== 'string' || result.nextCursor === '') return skills;
      cursor = result.nextCursor;
    }
    throw new Error('skills/list returned more than 1000 pages');
  }

  /** One skill by its SKILL.md URI, listed or not. */
  async get(uri: string, options?: RequestOptions): Promise<Skill> {
    const result = await this.#client.request<GetSkillResult>('skills/get', { uri }, options);
    const skill = checkEntry(result.skill);
    if (skill.uri !== uri)
      throw new SkillVerificationError('entry', uri, `skills/get for ${uri} returned the skill ${skill.uri}`);
    return skill;
  }

  /**
   * Reads one file of `skill` (a path relative to the skill's folder, or an absolute URI; default
   * its SKILL.md) and verifies it: listed, size, digest, and for SKILL.md the frontmatter field by
   * field. Rejects with SkillVerificationError on any mismatch; unlisted files are refused before
   * any request. Entries with `"dynamic"` resources have no digests: only the frontmatter is checked.
   */
  async read(skill: Skill, ref = 'SKILL.md', options?: RequestOptions): Promise<SkillFile> {
    const root = skill.uri.slice(0, -'/SKILL.md'.length);
    const uri = /^[a-z][a-z0-9+.-]*:/i.test(ref)
      ? ref
      : `${root}/${ref.split('/').map(encodeURIComponent).join('/')}`;
    const listed = skill.resources === 'dynamic' ? undefined : skill.resources.find((r) => r.uri === uri);
    if (skill.resources !== 'dynamic' && !listed)
      throw new SkillVerificationError('unlisted', uri, `${uri} is not a file of the skill ${skill.uri}`);
    const result = await this.#client.readResource({ uri }, options);
    const file = toFile(uri, result);
    if (listed) {
      if (file.bytes.byteLength !== listed.size)
        throw new SkillVerificationError(
          'size',
          uri,
          `${uri} is ${file.bytes.byteLength} bytes, its entry says ${listed.size}`,
        );
      const digest = await sha256Digest(file.bytes);
      if (digest !== listed.digest)
        throw new SkillVerificationError(
          'digest',
          uri,
          `${uri} has digest ${digest}, its entry says ${listed.digest}`,
        );
    }
    if (uri === skill.uri) this.#checkFrontmatter(skill, file);
    return file;
  }

  /** The direct children of a skill directory (every page); needs `hasDirectoryRead`. */
  async readDirectory(uri: string, options?: RequestOptions): Promise<DirectoryResource[]> {
    const resources: DirectoryResource[] = [];
    let cursor: string | undefined;
    do {
      const params = cursor === undefined ? { uri } : { uri, cursor };
      const result = await this.#client.request<ReadResourceDirectoryResult>(
        'resources/directory/read',
        params,
        options,
      );
      resources.push(...result.resources);
      cursor =
        typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
    } while (cursor !== undefined);
    return resources;
  }

  #checkFrontmatter(skill: Skill, file: SkillFile): void {
    const split = file.text === undefined ? undefined : splitFrontmatter(file.text);
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = split && this.#parse(split.yaml);
    } catch {
      parsed = undefined;
    }
    if (!split || !parsed)
      throw new SkillVerificationError('frontmatter', file.uri, `${file.uri} has no readable frontmatter`);
    const keys = new Set([...Object.keys(parsed), ...Object.keys(skill.frontmatter)]);
    const differing = [...keys].filter(
      (key) => toCanonicalJson(parsed[key] ?? null) !== toCanonicalJson(skill.frontmatter[key] ?? null),
    );
    if (differing.length > 0) {
      throw new SkillVerificationError(
        'frontmatter',
        file.uri,
        `${file.uri}: frontmatter differs from the skill entry in ${differing.map((k) => `"${k}"`).join(', ')}`,
      );
    }
    file.frontmatter = parsed;
    file.body = split.body;
  }
}

/** An entry as S26-SKILL-3 requires it, or SkillVerificationError (`entry`). */
function checkEntry(entry: unknown): Skill {
  const fail = (problem: string): never => {
    const uri = isJsonObject(entry) && typeof entry.uri === 'string' ? entry.uri : '(no uri)';
    throw new SkillVerificationError('entry', uri, `Invalid skill entry ${uri}: ${problem}`);
  };
  if (!isJsonObject(entry)) return fail('not an object');
  const { uri, frontmatter, resources } = entry;
  if (typeof uri !== 'string' || !uri.endsWith('/SKILL.md')) return fail('uri must name a SKILL.md');
  if (
    !isJsonObject(frontmatter) ||
    typeof frontmatter.name !== 'string' ||
    typeof frontmatter.description !== 'string'
  )
    return fail('frontmatter needs a name and a description');
  if (uri.split('/').at(-2) !== encodeURIComponent(frontmatter.name))
    return fail(`the skill's folder must be named "${frontmatter.name}"`);
  if (resources !== 'dynamic') {
    if (!Array.isArray(resources)) return fail('resources must be an array or "dynamic"');
    for (const resource of resources) {
      if (
        !isJsonObject(resource) ||
        typeof resource.uri !== 'string' ||
        typeof resource.digest !== 'string' ||
        !DIGEST.test(resource.digest) ||
        !Number.isInteger(resource.size) ||
        (resource.size as number) < 0
      )
        return fail('every resource needs a uri, a sha256 digest and a size');
    }
    if (!resources.some((resource) => isJsonObject(resource) && resource.uri === uri))
      return fail('resources must include SKILL.md');
  }
  return entry as unknown as Skill;
}

/** The bytes and text of a read's first content. */
function toFile(uri: string, result: ReadResourceResult): SkillFile {
  const content = result.contents[0];
  if (!content) throw new SkillVerificationError('size', uri, `${uri} was read with no content`);
  const mimeType = content.mimeType === undefined ? {} : { mimeType: content.mimeType };
  if ('text' in content && typeof content.text === 'string')
    return { uri, ...mimeType, text: content.text, bytes: new TextEncoder().encode(content.text) };
  const blob = 'blob' in content && typeof content.blob === 'string' ? content.blob : '';
  return { uri, ...mimeType, bytes: Uint8Array.from(atob(blob), (char) => char.charCodeAt(0)) };
}
