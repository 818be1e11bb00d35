// The skills a server serves, built once from their files: each skill's SKILL.md frontmatter, its
// complete file list with digests and sizes (S26-SKILL-3), and the directories under its root.

import { DIRECTORY_MIME_TYPE, SKILL_LIMITS, type DirectoryResource, type Skill } from './skills-protocol.ts';
import { sha256Digest, toBytes } from './digest.ts';
import { parseFrontmatter, splitFrontmatter } from './frontmatter.ts';

/**
 * Skill files by path: `<skill-path>/SKILL.md` makes a skill (its last segment is the skill's
 * name), and every file under `<skill-path>/` belongs to it. Strings are text, bytes are binary.
 */
export type SkillFiles = Readonly<Record<string, string | Uint8Array>>;

/** One served file. */
export interface CatalogFile {
  readonly uri: string;
  /** The path under the files' root, e.g. `pdf-processing/references/FORMS.md`. */
  readonly path: string;
  readonly content: string | Uint8Array;
  readonly mimeType: string;
}

/** One skill, before its digests are computed. */
export interface CatalogSkill {
  readonly uri: string;
  readonly frontmatter: Skill['frontmatter'];
  readonly files: readonly CatalogFile[];
}

/**
 * Agent Skills naming rules (S26-SKILL-2): 1-64 lowercase letters, digits and single hyphens, with
 * a letter or digit at each end (no `--`: checked apart, see {@link isSkillName}).
 */
const SKILL_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

function isSkillName(name: string): boolean {
  return SKILL_NAME.test(name) && !name.includes('--');
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  csv: 'text/csv',
  html: 'text/html',
  js: 'text/javascript',
  ts: 'text/typescript',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  png: 'image/png',
  jpg: 'image/jpeg',
  pdf: 'application/pdf',
};

/**
 * A fixed set of skills. Construction checks every skill and throws one Error listing every
 * problem; digests are computed on first use and kept (the files never change).
 */
export class SkillCatalog {
  readonly skills: readonly CatalogSkill[];
  readonly #files = new Map<string, CatalogFile>();
  readonly #bySkillUri = new Map<string, CatalogSkill>();
  /** Directory URI -> its direct children. */
  readonly #directories = new Map<string, Map<string, DirectoryResource>>();
  readonly #entries = new Map<string, Promise<Skill>>();

  constructor(files: SkillFiles, options: { baseUri?: string } = {}) {
    const baseUri = options.baseUri ?? 'skill://';
    const paths = Object.keys(files).sort();
    for (const path of paths) {
      const mimeType = mimeTypeOf(path, files[path]!);
      this.#files.set(toUri(baseUri, path), {
        uri: toUri(baseUri, path),
        path,
        content: files[path]!,
        mimeType,
      });
    }
    const problems: string[] = [];
    const skills: CatalogSkill[] = [];
    for (const path of paths.filter((p) => p.endsWith('/SKILL.md'))) {
      const root = path.slice(0, -'/SKILL.md'.length);
      const skill = this.#readSkill(root, path, files[path]!, problems);
      if (skill) skills.push(skill);
    }
    if (problems.length > 0) throw new Error(`Invalid skills:\n- ${problems.join('\n- ')}`);
    this.skills = skills;
    for (const skill of skills) this.#bySkillUri.set(skill.uri, skill);
  }

  /** The file at `uri`, if served. */
  file(uri: string): CatalogFile | undefined {
    return this.#files.get(uri);
  }

  /** The skill whose SKILL.md is at `uri`, if served. */
  skill(uri: string): CatalogSkill | undefined {
    return this.#bySkillUri.get(uri);
  }

  /** The entry of a skill, with every file's digest and size (computed once). */
  entry(skill: CatalogSkill): Promise<Skill> {
    let entry = this.#entries.get(skill.uri);
    if (!entry) {
      entry = Promise.all(
        skill.files.map(async (file) => {
          const bytes = toBytes(file.content);
          return { uri: file.uri, digest: await sha256Digest(bytes), size: bytes.byteLength };
        }),
      ).then((resources) => ({ uri: skill.uri, frontmatter: skill.frontmatter, resources }));
      this.#entries.set(skill.uri, entry);
    }
    return entry;
  }

  /** The direct children of a directory of a skill, or undefined if `uri` is not one. */
  directory(uri: string): readonly DirectoryResource[] | undefined {
    const children = this.#directories.get(uri);
    return children ? [...children.values()] : undefined;
  }

  #readSkill(
    root: string,
    path: string,
    content: string | Uint8Array,
    problems: string[],
  ): CatalogSkill | undefined {
    const text = typeof content === 'string' ? content : new TextDecoder().decode(content);
    const split = splitFrontmatter(text);
    if (!split) return void problems.push(`${path}: no frontmatter (a leading --- block)`);
    let frontmatter: Record<string, unknown>;
    try {
      frontmatter = parseFrontmatter(split.yaml);
    } catch (error) {
      return void problems.push(`${path}: ${(error as Error).message}`);
    }
    const name = root.split('/').pop() ?? '';
    if (frontmatter.name !== name)
      problems.push(
        `${path}: frontmatter name ${JSON.stringify(frontmatter.name)} must equal the folder name "${name}"`,
      );
    else if (!isSkillName(name))
      problems.push(
        `${path}: "${name}" is not a valid skill name (lowercase letters, digits, single hyphens)`,
      );
    if (typeof frontmatter.description !== 'string' || frontmatter.description === '')
      problems.push(`${path}: frontmatter needs a non-empty description`);
    const prefix = `${root}/`;
    const files = [...this.#files.values()].filter((file) => file.path.startsWith(prefix));
    const total = files.reduce((sum, file) => sum + toBytes(file.content).byteLength, 0);
    if (files.length > SKILL_LIMITS.maxResources || total > SKILL_LIMITS.maxTotalBytes)
      problems.push(`${path}: more than ${SKILL_LIMITS.maxResources} files or 16 MiB (S26-SKILL-3)`);
    const uri = files.find((file) => file.path === path)!.uri;
    for (const file of files) this.#addToDirectories(uri.slice(0, -'/SKILL.md'.length), file);
    return { uri, frontmatter: frontmatter as Skill['frontmatter'], files };
  }

  /** Records `file` and the folders leading to it as children of the skill's directories. */
  #addToDirectories(rootUri: string, file: CatalogFile): void {
    const segments = file.uri.slice(rootUri.length + 1).split('/');
    let directory = rootUri;
    for (const [index, segment] of segments.entries()) {
      const children = this.#directories.get(directory) ?? new Map<string, DirectoryResource>();
      this.#directories.set(directory, children);
      const child = `${directory}/${segment}`;
      const isFile = index === segments.length - 1;
      const name = decodeURIComponent(segment);
      children.set(
        child,
        isFile
          ? { uri: child, name, mimeType: file.mimeType, size: toBytes(file.content).byteLength }
          : { uri: child, name, mimeType: DIRECTORY_MIME_TYPE },
      );
      directory = child;
    }
  }
}

function toUri(baseUri: string, path: string): string {
  return baseUri + path.split('/').map(encodeURIComponent).join('/');
}

function mimeTypeOf(path: string, content: string | Uint8Array): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  return MIME_TYPES[extension] ?? (typeof content === 'string' ? 'text/plain' : 'application/octet-stream');
}
