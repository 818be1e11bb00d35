// The skills extension as a value a Server takes: `new Server(info, { extensions: [skills(files)] })`.
// It serves `skills/list`, `skills/get` and (with `directoryRead`) `resources/directory/read`, and
// registers every skill file as an ordinary resource, read with `resources/read` (S26-SKILL-2).

import type { JsonObject } from '../../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../../jsonrpc/rpc-error.ts';
import { defineExtension, type Extension } from '../../protocol/extension.ts';
import type { RequestContext } from '../../server/context.ts';
import type { ExtensionHost, ServerExtensionPart } from '../../server/extension.ts';
import type { ClientExtensionPart } from '../../client/extension.ts';
import { SkillCatalog, type SkillFiles } from './skill-catalog.ts';
import { SKILLS_EXTENSION_ID, SKILLS_METHODS, type SkillsCapability } from './skills-protocol.ts';

/** Options of the skills extension's server side. */
export interface SkillsOptions {
  /** Serve `resources/directory/read` and declare `directoryRead: true` (S26-SKILL-5). Default false. */
  directoryRead?: boolean;
  /** Skills per `skills/list` page; default 50. */
  pageSize?: number;
  /** URI prefix of the skill files; default `skill://` (S26-SKILL-2). */
  baseUri?: string;
}

/** What {@link skills} returns: one value for a Server (its handlers) and a Client (its settings). */
export type SkillsExtension = Extension<ServerExtensionPart, ClientExtensionPart>;

/**
 * The skills extension, serving `source` (skill files by path, e.g. from `readSkillsDirectory`, or
 * a SkillCatalog). Throws at once, naming every problem, if a skill is invalid (no frontmatter, a
 * name that differs from its folder, no description). The same value declares the extension on a
 * Client (`new Client(info, { extensions: [skills()] })`), where no files are needed.
 */
export function skills(source: SkillFiles | SkillCatalog = {}, options: SkillsOptions = {}): SkillsExtension {
  const catalog = source instanceof SkillCatalog ? source : new SkillCatalog(source, options);
  const settings: SkillsCapability = options.directoryRead ? { directoryRead: true } : {};
  const server: ServerExtensionPart = {
    handlers: skillsHandlers(catalog, options),
    settings: () => ({ ...settings }),
    // S26-SKILL-1: skill files are resources, so the server declares `resources` too.
    requires: { resources: {} },
    attach: (host) => registerFiles(host, catalog),
  };
  const client: ClientExtensionPart = { settings: () => ({}) };
  return defineExtension({
    id: SKILLS_EXTENSION_ID,
    methods: SKILLS_METHODS,
    metaPrefix: 'io.modelcontextprotocol.skills/',
    server,
    client,
  });
}

function skillsHandlers(catalog: SkillCatalog, options: SkillsOptions): ServerExtensionPart['handlers'] {
  const pageSize = options.pageSize ?? 50;
  const handlers: Record<string, ServerExtensionPart['handlers'][string]> = {
    // S26-SKILL-4: whole entries per page; the cursor is the index of the next skill.
    'skills/list': async (params) => {
      const start = readCursor(params.cursor, 'skills/list', catalog.skills.length);
      const page = catalog.skills.slice(start, start + pageSize);
      const result: JsonObject = { skills: (await Promise.all(page.map((s) => catalog.entry(s)))) as never };
      if (start + pageSize < catalog.skills.length) result.nextCursor = String(start + pageSize);
      return result;
    },
    'skills/get': async (params) => {
      const skill = catalog.skill(params.uri as string);
      if (!skill)
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params for "skills/get": no skill at ${JSON.stringify(params.uri)}`,
          { uri: params.uri as string },
        );
      return { skill: (await catalog.entry(skill)) as never };
    },
  };
  if (options.directoryRead)
    handlers['resources/directory/read'] = (params) => readDirectory(catalog, params, pageSize);
  else handlers['resources/directory/read'] = notDeclared;
  return handlers;
}

/** Without `directoryRead` the gate refuses the method before its handler; this is never reached. */
function notDeclared(_params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
  return Promise.reject(new RpcError(ErrorCode.MethodNotFound, `Method not found: "${ctx.method}"`));
}

function readDirectory(catalog: SkillCatalog, params: JsonObject, pageSize: number): Promise<JsonObject> {
  const children = catalog.directory(params.uri as string);
  if (!children) {
    const problem = catalog.file(params.uri as string)
      ? 'is a file, not a directory'
      : 'is not a served directory';
    return Promise.reject(
      new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params for "resources/directory/read": ${JSON.stringify(params.uri)} ${problem}`,
      ),
    );
  }
  const start = readCursor(params.cursor, 'resources/directory/read', children.length);
  const result: JsonObject = { resources: children.slice(start, start + pageSize) as never };
  if (start + pageSize < children.length) result.nextCursor = String(start + pageSize);
  return Promise.resolve(result);
}

function readCursor(cursor: unknown, method: string, length: number): number {
  if (cursor === undefined) return 0;
  const start = typeof cursor === 'string' && /^\d+$/.test(cursor) ? Number(cursor) : NaN;
  if (!(start <= length))
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params for "${method}": unknown cursor ${JSON.stringify(cursor)}`,
    );
  return start;
}

/** Every skill file as a resource; SKILL.md named and described from its frontmatter (S26-SKILL-2). */
function registerFiles(host: ExtensionHost, catalog: SkillCatalog): void {
  const skillOf = new Map(catalog.skills.map((skill) => [skill.uri, skill]));
  const registered = new Set<string>();
  for (const skill of catalog.skills) {
    for (const file of skill.files) {
      if (registered.has(file.uri)) continue;
      registered.add(file.uri);
      const manifest = skillOf.get(file.uri);
      host.resource(
        {
          uri: file.uri,
          name: manifest ? manifest.frontmatter.name : file.path,
          ...(manifest ? { description: manifest.frontmatter.description } : {}),
          mimeType: file.mimeType,
        },
        () => file.content,
      );
    }
  }
}
