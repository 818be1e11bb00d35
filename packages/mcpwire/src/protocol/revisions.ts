// Protocol revisions as data: which versions exist, which era each belongs to, and which revision first (and
// last) had each wire feature. Code asks `hasFeature` instead of comparing version strings itself.

import type { ContentBlock, TextContent, Tool } from './types/index.ts';

/** The handshake-era revisions (negotiated by `initialize`), newest first. */
export const HANDSHAKE_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** The stateless-era revisions (version named on every request), newest first. */
export const STATELESS_VERSIONS = ['2026-07-28'] as const;

/** A revision this SDK knows. */
export type ProtocolVersion = (typeof HANDSHAKE_VERSIONS)[number] | (typeof STATELESS_VERSIONS)[number];

/**
 * The protocol eras a server speaks: `both` (the default: `initialize` and the stateless era on one
 * endpoint), `handshake` (answers as a 2025 server would: `server/discover` is an unknown method, a
 * request's 2026-07-28 `_meta` envelope is ignored), or `stateless` (2026-07-28 only: `initialize`
 * is refused with -32022 naming the versions served, S26-VER-5).
 */
export type ServedEras = 'both' | 'handshake' | 'stateless';

/** The first stateless-era revision: this and every later date is stateless. */
const FIRST_STATELESS_VERSION = '2026-07-28';

/** A revision identifier is a `YYYY-MM-DD` date; as such, string order is date order. */
const DATE_SHAPE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** True if `version` is a date-shaped revision identifier on or after 2026-07-28, known or not. */
export function isStatelessVersion(version: string): boolean {
  // The common case first: a revision we know (no regular expression per request).
  if (version === FIRST_STATELESS_VERSION) return true;
  return version > FIRST_STATELESS_VERSION && DATE_SHAPE.test(version);
}

/** True if `version` is one of the revisions this SDK knows. */
export function isKnownVersion(version: string): version is ProtocolVersion {
  return (
    (HANDSHAKE_VERSIONS as readonly string[]).includes(version) ||
    (STATELESS_VERSIONS as readonly string[]).includes(version)
  );
}

/** The revisions that have a feature: from `since` through `until` (inclusive; absent means still present). */
export interface FeatureSpan {
  readonly since: ProtocolVersion;
  readonly until?: ProtocolVersion;
}

/**
 * When each wire feature appeared (and, if removed, the last revision that had it), from the spec's changelogs
 * and schemas. `revisions.test.ts` checks every entry against the official schema.json of each revision.
 */
export const REVISION_FEATURES = {
  /** JSON-RPC batches (arrays of messages). */
  batching: { since: '2025-03-26', until: '2025-03-26' },
  /** `AudioContent` blocks. */
  audioContent: { since: '2025-03-26' },
  /** `Tool.annotations` (`ToolAnnotations`). */
  toolAnnotations: { since: '2025-03-26' },
  /** The server's `completions` capability. */
  completionsCapability: { since: '2025-03-26' },
  /** `message` on `notifications/progress`. */
  progressMessage: { since: '2025-03-26' },
  /** `title` on Implementation, Tool, Resource, ResourceTemplate, Prompt, PromptArgument (`BaseMetadata`). */
  title: { since: '2025-06-18' },
  /** `Tool.outputSchema` and `CallToolResult.structuredContent`. */
  structuredContent: { since: '2025-06-18' },
  /** `ResourceLink` content blocks. */
  resourceLink: { since: '2025-06-18' },
  /** `elicitation/create` (form mode) and the client's `elicitation` capability. */
  elicitation: { since: '2025-06-18' },
  /** `context.arguments` on `completion/complete`. */
  completionContext: { since: '2025-06-18' },
  /** `icons` on Implementation, Tool, Prompt, Resource, ResourceTemplate. */
  icons: { since: '2025-11-25' },
  /** `tools`/`toolChoice` on `sampling/createMessage`, `tool_use`/`tool_result` blocks, array content. */
  samplingTools: { since: '2025-11-25' },
  /** URL-mode elicitation. */
  elicitationUrl: { since: '2025-11-25' },
  /** Core tasks: `tasks/*`, the `task` param, `Tool.execution`. 2026-07-28 moves them to an extension. */
  tasks: { since: '2025-11-25', until: '2025-11-25' },
  /** `description` and `websiteUrl` on `Implementation`. */
  implementationDescription: { since: '2025-11-25' },
  /** Error responses without `id` when the request's id could not be read. */
  idlessErrorResponse: { since: '2025-11-25' },
} as const satisfies Record<string, FeatureSpan>;

/** A feature named in `REVISION_FEATURES`. */
export type RevisionFeature = keyof typeof REVISION_FEATURES;

/**
 * True if revision `version` has `feature`. Revisions compare as dates, so a date-shaped version this SDK does
 * not know is placed among the known ones; a string that is not date-shaped has no features.
 */
export function hasFeature(version: string, feature: RevisionFeature): boolean {
  if (!isDateShaped(version)) return false;
  const span: FeatureSpan = REVISION_FEATURES[feature];
  return version >= span.since && (span.until === undefined || version <= span.until);
}

// The last version tested: a session asks about its one revision on every request (issue 23).
let lastVersion: string | undefined;
let isLastDateShaped = false;

function isDateShaped(version: string): boolean {
  if (version !== lastVersion) {
    isLastDateShaped = DATE_SHAPE.test(version);
    lastVersion = version;
  }
  return isLastDateShaped;
}

/**
 * Returns a content block that is valid in revision `version`: the block itself when the revision has its type,
 * else a TextContent standing in for it (resource_link before 2025-06-18, audio before 2025-03-26). The
 * replacement keeps the block's `annotations`; its `_meta` described the original block and is dropped.
 */
export function adaptContentForRevision(block: ContentBlock, version: string): ContentBlock {
  if (block.type === 'resource_link' && !hasFeature(version, 'resourceLink')) {
    const label = block.title ?? block.name;
    const about = block.description === undefined ? '' : `: ${block.description}`;
    return toText(`Resource link "${label}" <${block.uri}>${about}`, block);
  }
  if (block.type === 'audio' && !hasFeature(version, 'audioContent')) {
    return toText(
      `[Audio content (${block.mimeType}) omitted: protocol revision ${version} cannot carry audio]`,
      block,
    );
  }
  return block;
}

function toText(text: string, original: ContentBlock): TextContent {
  return original.annotations === undefined
    ? { type: 'text', text }
    : { type: 'text', text, annotations: original.annotations };
}

/**
 * Returns a tool definition that is valid in the given revision. This is the tool itself: no revision's
 * schema.json declares `additionalProperties: false` on `Tool` or anything inside it, so fields a revision does
 * not know (`title`, `icons`, `annotations`, `outputSchema`, `execution`, `_meta`) pass its validation, and
 * peers ignore them. `revisions.test.ts` validates a tool with every field against each revision's `Tool`.
 * Callers still route every tool through here, so a future revision that does reject a field changes one place.
 */
export function adaptToolForRevision(tool: Tool, _version: string): Tool {
  return tool;
}
