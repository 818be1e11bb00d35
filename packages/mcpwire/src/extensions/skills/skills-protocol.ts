// The skills extension's wire vocabulary (SEP-2640, S26-SKILL): its id, its three methods described
// once, and the shapes of skill entries and results. Both the server and the client side read it.

import type { JsonObject } from '../../jsonrpc/message.ts';
import { extensionGate } from '../../protocol/extension.ts';
import { describeMethod } from '../../protocol/method-spec.ts';
import type { Cursor, PaginatedRequestParams, RequestParams } from '../../protocol/types/index.ts';

/** The extension id under `capabilities.extensions` (S26-EXT-5). */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
/** The `_meta` key prefix skill resources use (S26-SKILL-2). */
export const SKILLS_META_PREFIX = 'io.modelcontextprotocol.skills/';
/** The mime type of a directory child in `resources/directory/read` (S26-SKILL-5). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';
/** What hosts must support per skill (S26-SKILL-3); servers should stay within it. */
export const SKILL_LIMITS = { maxResources: 512, maxTotalBytes: 16 * 1024 * 1024 } as const;

/** The server's settings under the extension id (S26-SKILL-1). */
export interface SkillsCapability {
  /** The server serves `resources/directory/read`. */
  directoryRead?: boolean;
}

/** One file of a skill: its URI, `sha256:<64 lowercase hex>` of its bytes, and their count. */
export interface SkillResource {
  uri: string;
  digest: string;
  size: number;
}

/** A skill entry (S26-SKILL-3): its SKILL.md URI, that file's frontmatter verbatim, and every file. */
export interface Skill {
  uri: string;
  frontmatter: { name: string; description: string; [key: string]: unknown };
  /** Complete (SKILL.md included), or `"dynamic"` for a skill whose files are not enumerable. */
  resources: SkillResource[] | 'dynamic';
}

/** `skills/list` result (S26-SKILL-4): paginated, an entry never split across pages. */
export interface ListSkillsResult {
  skills: Skill[];
  nextCursor?: Cursor;
  [key: string]: unknown;
}

/** `skills/get` result: one entry, no cursor. */
export interface GetSkillResult {
  skill: Skill;
  [key: string]: unknown;
}

/** A direct child of a skill directory. */
export interface DirectoryResource {
  uri: string;
  name: string;
  mimeType?: string;
  size?: number;
}

/** `resources/directory/read` result (S26-SKILL-5). */
export interface ReadResourceDirectoryResult {
  resources: DirectoryResource[];
  nextCursor?: Cursor;
  [key: string]: unknown;
}

const FIRST = '2024-11-05';

/** The extension's methods. Their gate is the server's declaration of the extension (or its flag). */
export const SKILLS_METHODS = {
  'skills/list': describeMethod<PaginatedRequestParams, ListSkillsResult>()({
    kind: 'request',
    sender: 'client',
    gate: extensionGate('server', SKILLS_EXTENSION_ID),
    since: FIRST,
    params: { cursor: 'string?' },
    isPaginated: true,
    cache: 'lists',
  }),
  'skills/get': describeMethod<RequestParams & { uri: string }, GetSkillResult>()({
    kind: 'request',
    sender: 'client',
    gate: extensionGate('server', SKILLS_EXTENSION_ID),
    since: FIRST,
    params: { uri: 'string' },
    cache: 'lists',
  }),
  'resources/directory/read': describeMethod<
    PaginatedRequestParams & { uri: string },
    ReadResourceDirectoryResult
  >()({
    kind: 'request',
    sender: 'client',
    gate: extensionGate('server', SKILLS_EXTENSION_ID, 'directoryRead'),
    since: FIRST,
    params: { uri: 'string', cursor: 'string?' },
    isPaginated: true,
    cache: 'lists',
  }),
};

/** True if `value` is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
