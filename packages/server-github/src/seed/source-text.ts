// Source text for the seeded repositories: plausible modules in TypeScript, Go or Python built from
// each file's function names, plus a README and a manifest per repository. Deterministic per seed.

import type { Random } from './random.ts';
import type { FileSpec, RepositorySpec } from './repository-specs.ts';

/** A file's path and text. */
export interface SourceFile {
  path: string;
  content: string;
}

const STEPS = {
  typescript: [
    'const started = Date.now();',
    'if (!input) throw new TypeError(`expected input, received ${String(input)}`);',
    'const cached = cache.get(key);',
    'if (cached !== undefined) return cached;',
    'const result = await store.read(key);',
    'logger.debug("step finished", { key, ms: Date.now() - started });',
    'metrics.increment("calls");',
    '// TODO: retry once when the store is unavailable',
  ],
  go: [
    'start := time.Now()',
    'if ctx.Err() != nil {\n\t\treturn ctx.Err()\n\t}',
    'mu.Lock()\n\tdefer mu.Unlock()',
    'log.Printf("done in %s", time.Since(start))',
    'metrics.Inc("calls_total")',
    '// TODO: make the timeout configurable',
  ],
  python: [
    'started = time.monotonic()',
    'if not items:\n        return []',
    'logger.debug("step finished in %.3fs", time.monotonic() - started)',
    'metrics.increment("calls")',
    '# TODO: respect the exporter timeout here',
  ],
} as const;

/** Every file of `repository` on its default branch: its modules, a README and a manifest. */
export function createRepositoryFiles(repository: RepositorySpec, random: Random): SourceFile[] {
  const modules = repository.files.map((file) => ({
    path: file.path,
    content: moduleText(repository, file, random),
  }));
  return [...modules, readme(repository), manifest(repository)];
}

/** A module: a header comment, then one function per name, each a few plausible steps long. */
export function moduleText(repository: RepositorySpec, file: FileSpec, random: Random): string {
  const steps: readonly string[] = STEPS[repository.language];
  // Kept in the bank's order, so a check comes before the value it guards.
  const body = (): string[] =>
    random.sample(steps, random.integer(2, 4)).sort((a, b) => steps.indexOf(a) - steps.indexOf(b));
  switch (repository.language) {
    case 'go':
      return [
        `// Package ${file.path.split('/').at(-2)} is part of ${repository.name}.`,
        `package ${file.path.split('/').at(-2)}`,
        '',
        ...file.functions.flatMap((name) => [
          `// ${name} is called by the ${repository.areas[0]} code path.`,
          `func ${name}(ctx context.Context) error {`,
          ...body().map((step) => `\t${step}`),
          '\treturn nil',
          '}',
          '',
        ]),
      ].join('\n');
    case 'python':
      return [
        `"""${file.path}: part of ${repository.name}."""`,
        '',
        'import logging',
        'import time',
        '',
        'logger = logging.getLogger(__name__)',
        '',
        ...file.functions.flatMap((name) => [
          '',
          `def ${name}(items=None):`,
          `    """${name.replace(/_/g, ' ')}."""`,
          ...body().map((step) => `    ${step}`),
          '    return items',
          '',
        ]),
      ].join('\n');
    case 'typescript':
      return [
        `// ${file.path}: part of ${repository.name} (${repository.description})`,
        '',
        "import { cache, logger, metrics, store } from '../runtime';",
        '',
        ...file.functions.flatMap((name) => [
          `/** ${name}: see the ${random.pick(repository.areas)} docs. */`,
          `export async function ${name}(input: string, key = input): Promise<unknown> {`,
          ...body().map((step) => `  ${step}`),
          '  return result ?? null;',
          '}',
          '',
        ]),
      ].join('\n');
  }
}

function readme(repository: RepositorySpec): SourceFile {
  const install = {
    typescript: `npm install @${repository.owner}/${repository.name}`,
    go: `go install github.example/${repository.owner}/${repository.name}/cmd/...@latest`,
    python: `pip install ${repository.name}`,
  }[repository.language];
  const content = [
    `# ${repository.name}`,
    '',
    repository.description,
    '',
    '## Install',
    '',
    '```sh',
    install,
    '```',
    '',
    '## Layout',
    '',
    ...repository.files.map((file) => `- \`${file.path}\`: ${file.functions.join(', ')}`),
    '',
    `Maintained by ${repository.maintainers.map((login) => `@${login}`).join(', ')}.`,
    '',
  ].join('\n');
  return { path: 'README.md', content };
}

function manifest(repository: RepositorySpec): SourceFile {
  switch (repository.language) {
    case 'go':
      return {
        path: 'go.mod',
        content: `module github.example/${repository.owner}/${repository.name}\n\ngo 1.22\n`,
      };
    case 'python':
      return {
        path: 'pyproject.toml',
        content: `[project]\nname = "${repository.name}"\nversion = "0.4.0"\nrequires-python = ">=3.10"\n`,
      };
    case 'typescript':
      return {
        path: 'package.json',
        content: `${JSON.stringify({ name: `@${repository.owner}/${repository.name}`, version: '1.3.0', type: 'module', scripts: { test: 'vitest run' } }, null, 2)}\n`,
      };
  }
}
