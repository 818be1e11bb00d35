// The layering table of STYLE.md, enforced: a forbidden import, a node:* import outside the
// allowed places, a banned file name or an import cycle fails this test.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const SRC = resolve(import.meta.dirname, '../src');

/** Which top-level folders (or exact files) each layer may import. */
const ALLOWED: Record<string, readonly string[]> = {
  jsonrpc: ['jsonrpc'],
  protocol: ['jsonrpc', 'protocol'],
  validation: ['jsonrpc', 'validation'],
  transports: ['jsonrpc', 'protocol', 'transports'],
  server: ['jsonrpc', 'protocol', 'validation', 'server', 'transports/channel.ts'],
  client: ['jsonrpc', 'protocol', 'validation', 'client', 'transports/channel.ts'],
  auth: ['protocol', 'auth'],
  cli: [
    'cli',
    'index.ts',
    'server/index.ts',
    'client/index.ts',
    'transports/stdio/index.ts',
    'transports/http/index.ts',
    'transports/http/node.ts',
    'transports/tap.ts',
    'transports/channel.ts',
  ],
  'index.ts': ['jsonrpc', 'protocol', 'transports', 'validation'],
};

/** Where `node:*` may be imported. */
const NODE_ALLOWED = ['transports/stdio/', 'transports/http/node', 'cli/'];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm))
    specifiers.push(match[1]!);
  for (const match of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) specifiers.push(match[1]!);
  return specifiers;
}

function layerOf(path: string): string {
  const rel = relative(SRC, path);
  return rel.includes('/') ? rel.split('/')[0]! : rel;
}

function isAllowed(layer: string, target: string): boolean {
  const rules = ALLOWED[layer];
  if (!rules) return false;
  return rules.some((rule) =>
    rule.endsWith('.ts') ? target === rule : target === rule || target.startsWith(`${rule}/`),
  );
}

const files = sourceFiles(SRC);

test('every import follows the layering table (STYLE.md)', () => {
  const violations: string[] = [];
  for (const file of files) {
    const rel = relative(SRC, file);
    const layer = layerOf(file);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('node:')) {
        if (!NODE_ALLOWED.some((prefix) => rel.startsWith(prefix)))
          violations.push(`${rel}: imports ${specifier}`);
        continue;
      }
      if (!specifier.startsWith('.')) continue; // packages: justified in docs/design.md
      const target = relative(SRC, resolve(dirname(file), specifier));
      if (target.startsWith('..')) violations.push(`${rel}: imports outside src (${specifier})`);
      else if (!isAllowed(layer, target))
        violations.push(`${rel}: layer "${layer}" must not import ${target}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('no file or folder is named shared, common, utils or helpers', () => {
  const banned = files.filter((file) =>
    /(^|\/)(shared|common|utils|helpers)(\/|\.ts$)/.test(relative(SRC, file)),
  );
  assert.deepEqual(banned, []);
});

test('there are no import cycles', () => {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps = importsOf(file)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolve(dirname(file), s));
    graph.set(file, deps);
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: string[] = [];
  const visit = (node: string, stack: string[]): void => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'visiting') {
      cycles.push([...stack.slice(stack.indexOf(node)), node].map((p) => relative(SRC, p)).join(' -> '));
      return;
    }
    state.set(node, 'visiting');
    for (const dep of graph.get(node) ?? []) visit(dep, [...stack, node]);
    state.set(node, 'done');
  };
  for (const file of files) visit(file, []);
  assert.deepEqual(cycles, []);
});

test('the checker itself catches a forbidden import', () => {
  // Guards against a checker that can never fail: these must be refused.
  assert.equal(isAllowed('protocol', 'server/server.ts'), false);
  assert.equal(isAllowed('client', 'server/server.ts'), false);
  assert.equal(isAllowed('server', 'transports/stdio/index.ts'), false);
  assert.equal(isAllowed('cli', 'server/tools.ts'), false);
  assert.equal(isAllowed('server', 'transports/channel.ts'), true);
});
