// Public entry of `mcpwire/extensions/skills` (SEP-2640): the extension value a Server (and Client)
// takes, the skill catalog, the host-side SkillsClient that verifies what it reads, and the wire types.

export { skills, type SkillsExtension, type SkillsOptions } from './skills-server.ts';
export { SkillCatalog, type CatalogFile, type CatalogSkill, type SkillFiles } from './skill-catalog.ts';
export { readSkillsDirectory } from './skills-directory.ts';
export {
  SkillsClient,
  SkillVerificationError,
  type SkillFile,
  type SkillsClientOptions,
  type SkillVerificationReason,
} from './skills-client.ts';
export { parseFrontmatter, splitFrontmatter } from './frontmatter.ts';
export {
  DIRECTORY_MIME_TYPE,
  SKILL_LIMITS,
  SKILLS_EXTENSION_ID,
  SKILLS_META_PREFIX,
  SKILLS_METHODS,
  type DirectoryResource,
  type GetSkillResult,
  type ListSkillsResult,
  type ReadResourceDirectoryResult,
  type Skill,
  type SkillResource,
  type SkillsCapability,
} from './skills-protocol.ts';
