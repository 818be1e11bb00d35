// Skill files from a folder on disk (Node, Deno, Bun): a folder of skill folders, each with a SKILL.md.
// `node:fs` is imported on first call, so the entry point stays loadable where there is no file system.

import type { SkillFiles } from './skill-catalog.ts';

/**
 * Reads every regular file under `root` into SkillFiles (paths relative to `root`, `/`-separated).
 * Valid UTF-8 becomes text, anything else stays bytes; symbolic links and dot-files are skipped.
 * Rejects with the file system's error if `root` cannot be read.
 */
export async function readSkillsDirectory(root: string): Promise<SkillFiles> {
  const fs = await import('node:fs/promises');
  const nodePath = await import('node:path');
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const files: Record<string, string | Uint8Array> = {};
  const walk = async (relative: string): Promise<void> => {
    const entries = await fs.readdir(nodePath.join(root, relative), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.')) continue;
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        const bytes = new Uint8Array(await fs.readFile(nodePath.join(root, path)));
        try {
          files[path] = decoder.decode(bytes);
        } catch {
          files[path] = bytes;
        }
      }
    }
  };
  await walk('');
  return files;
}
