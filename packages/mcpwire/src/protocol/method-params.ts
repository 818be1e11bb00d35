// The shallow check of a request's or notification's `params` against its row (the -32602 message):
// each row's rules are parsed once, then every inbound and outbound message is checked against them.

import type { MethodSpec, ParamRule } from './method-spec.ts';

/**
 * Checks `params` against the row's shallow rules. Returns a readable problem naming the method and
 * the field (for a -32602 message), or undefined when the params are acceptable.
 */
export function checkParams(method: string, spec: MethodSpec, params: unknown): string | undefined {
  const rules = compiledRules(spec);
  if (rules.length === 0) return undefined;
  const record = (params ?? {}) as Record<string, unknown>;
  for (const { key, type, isOptional } of rules) {
    const value = record[key];
    if (value === undefined) {
      if (isOptional) continue;
      return `Invalid params for "${method}": missing required "${key}"`;
    }
    if (!matchesRule(type, value)) {
      return `Invalid params for "${method}": "${key}" must be ${article(type)}, got ${describeValue(value)}`;
    }
  }
  return undefined;
}

interface CompiledRule {
  key: string;
  type: ParamRule;
  isOptional: boolean;
}

/** A row's rules as a list, parsed once per row (every inbound and outbound message is checked). */
function compiledRules(spec: MethodSpec): readonly CompiledRule[] {
  let rules = compiled.get(spec);
  if (rules === undefined) {
    rules = Object.entries(spec.params ?? {}).map(([key, rule]) => {
      const isOptional = rule.endsWith('?');
      return { key, type: (isOptional ? rule.slice(0, -1) : rule) as ParamRule, isOptional };
    });
    compiled.set(spec, rules);
  }
  return rules;
}

const compiled = new WeakMap<MethodSpec, readonly CompiledRule[]>();

function matchesRule(type: ParamRule, value: unknown): boolean {
  switch (type) {
    case 'any':
      return true;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'id':
      return typeof value === 'string' || Number.isInteger(value);
    default:
      return typeof value === type;
  }
}

function article(type: string): string {
  if (type === 'id') return 'a string or an integer';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
