// The rules of `mcpwire check`: each one's stable id, default severity, what it finds and where the
// requirement comes from. Light on purpose: `mcpwire check --help` lists these without the engine.

import type { CheckSeverity } from './check-finding.ts';

/** One rule of the catalogue. */
export interface CheckRuleInfo {
  readonly id: string;
  readonly severity: CheckSeverity;
  /** What the rule finds, one line. */
  readonly summary: string;
  /** The requirement or evidence behind it (a checklist id, a client in client-table.ts). */
  readonly source: string;
}

/**
 * Every rule, in the order `--help` and the SARIF driver list them. Ids are stable: CI scripts pass
 * them to --ignore. A compat/* rule is a warning unless `--clients` names the client, then an error.
 */
export const CHECK_RULES = [
  {
    id: 'spec/tool-name',
    severity: 'warning',
    summary: 'a tool name outside 1 to 128 of A-Z a-z 0-9 _ - . (SHOULD since 2025-11-25; a note before)',
    source: 'TOOL-5 (2025-11-25), S26-TOOL-1',
  },
  {
    id: 'spec/duplicate-name',
    severity: 'error',
    summary:
      'two tools or prompts with one name, two resources with one uri, two templates with one uriTemplate',
    source: 'TOOL-5; a client can reach only one of them',
  },
  {
    id: 'spec/schema-type',
    severity: 'error',
    summary:
      'an inputSchema (or before 2026-07-28 an outputSchema) that is no object schema with type "object"',
    source: 'TOOL-2, TOOL-3, S26-TOOL-1',
  },
  {
    id: 'spec/schema-invalid',
    severity: 'error',
    summary:
      'an inputSchema or outputSchema that does not compile as JSON Schema of its dialect (2020-12 unless $schema)',
    source: 'TOOL-2, TOOL-3, SCHEMA-1, SCHEMA-2',
  },
  {
    id: 'spec/schema-too-deep',
    severity: 'warning',
    summary: 'a schema nested deeper than 64 levels: not compiled nor checked below that depth',
    source: 'mcpwire: untrusted JSON is walked to a depth cap',
  },
  {
    id: 'spec/prompt-argument',
    severity: 'error',
    summary: 'a prompt argument without a name, or two arguments of one prompt with one name',
    source: 'PROMPT-2',
  },
  {
    id: 'spec/uri-template',
    severity: 'error',
    summary: 'a resource template whose uriTemplate is no RFC 6570 URI Template',
    source: 'RES-2 (RFC 6570 section 2)',
  },
  {
    id: 'spec/annotations-contradict',
    severity: 'warning',
    summary: 'a tool annotated readOnlyHint: true and destructiveHint: true at once',
    source: 'ToolAnnotations: destructiveHint means something only when readOnlyHint is false',
  },
  {
    id: 'compat/tool-name',
    severity: 'warning',
    summary: "a tool name a model API or host refuses (each client's charset and length)",
    source: 'client-table.ts',
  },
  {
    id: 'compat/tool-count',
    severity: 'warning',
    summary: 'more tools than a model API or host accepts in one request',
    source: 'client-table.ts',
  },
  {
    id: 'compat/description-length',
    severity: 'warning',
    summary: 'a tool description longer than a model API accepts',
    source: 'client-table.ts',
  },
  {
    id: 'compat/top-level-combinator',
    severity: 'warning',
    summary: 'anyOf, oneOf or allOf at the top level of an inputSchema',
    source: 'client-table.ts',
  },
  {
    id: 'compat/ref',
    severity: 'warning',
    summary: '$ref or $defs/definitions in an inputSchema',
    source: 'client-table.ts',
  },
  {
    id: 'compat/pattern-properties',
    severity: 'warning',
    summary: 'patternProperties in an inputSchema',
    source: 'client-table.ts',
  },
  {
    id: 'compat/format',
    severity: 'warning',
    summary: 'a string "format" a model API does not support',
    source: 'client-table.ts',
  },
  {
    id: 'compat/missing-type',
    severity: 'warning',
    summary: 'a subschema of an inputSchema without "type"',
    source: 'client-table.ts',
  },
  {
    id: 'poison/hidden-text',
    severity: 'error',
    summary:
      'invisible Unicode tag characters, zero-width or bidi controls in any name, title, description or schema text',
    source: 'tool poisoning: text a person reviewing the definition cannot see',
  },
  {
    id: 'poison/instruction',
    severity: 'error',
    summary:
      'text aimed at the model: "ignore previous instructions", <IMPORTANT> blocks, "do not tell the user"',
    source: 'tool poisoning',
  },
  {
    id: 'poison/listing-changed',
    severity: 'error',
    summary: 'a tool or prompt that reads differently when listed a second time in the same connection',
    source: 'tool poisoning: a "rug pull" between review and use',
  },
  {
    id: 'hygiene/missing-description',
    severity: 'warning',
    summary: 'a tool or prompt without a description',
    source: 'S26-TOOL-3 (conformance suite); the model chooses tools by their descriptions',
  },
  {
    id: 'hygiene/parameter-description',
    severity: 'note',
    summary: 'a tool parameter or prompt argument without a description',
    source: 'the model fills parameters from their descriptions',
  },
  {
    id: 'hygiene/required-absent',
    severity: 'error',
    summary: '"required" naming a property the schema does not declare',
    source:
      'JSON Schema 2020-12 section 10.3.2.1 and 6.5.3: a call that satisfies the schema must send an undeclared property',
  },
  {
    id: 'call/structured-missing',
    severity: 'error',
    summary: 'with --call: a tool with an outputSchema whose result has no structuredContent',
    source: 'TOOL-3, S26-TOOL-1 (MUST)',
  },
  {
    id: 'call/structured-invalid',
    severity: 'error',
    summary: "with --call: structuredContent that does not validate against the tool's outputSchema",
    source: 'TOOL-3, S26-TOOL-1 (MUST)',
  },
  {
    id: 'call/structured-without-schema',
    severity: 'note',
    summary: 'with --call: structuredContent from a tool that declares no outputSchema',
    source: 'TOOL-3: an outputSchema is optional, but without one no client can validate the result',
  },
  {
    id: 'call/structured-not-mirrored',
    severity: 'warning',
    summary: 'with --call: structuredContent not repeated as serialized JSON in a text content block',
    source: 'TOOL-4, S26-TOOL-1 (SHOULD, for older clients)',
  },
  {
    id: 'call/tool-error',
    severity: 'note',
    summary: "with --call: the sample call's result has isError: true (the server's message quoted)",
    source: 'TOOL-7: a failed call is a result; its content was not checked',
  },
  {
    id: 'call/rpc-error',
    severity: 'warning',
    summary: 'with --call: the sample call was answered with a JSON-RPC error',
    source: "TOOL-7: a tool's own failure belongs in an isError result",
  },
  {
    id: 'pin/added',
    severity: 'error',
    summary: 'a definition the lock file (--pin) does not have',
    source: 'mcpwire pin',
  },
  {
    id: 'pin/removed',
    severity: 'error',
    summary: 'a definition of the lock file (--pin) the server no longer lists',
    source: 'mcpwire pin',
  },
  {
    id: 'pin/changed',
    severity: 'error',
    summary: 'a definition that differs from the lock file (--pin): which fields, old and new',
    source: 'mcpwire pin',
  },
] as const satisfies readonly CheckRuleInfo[];

/** A rule id of the catalogue. */
export type CheckRuleId = (typeof CHECK_RULES)[number]['id'];

/** The rule with `id`, or undefined. */
export function lookupCheckRule(id: string): CheckRuleInfo | undefined {
  return (CHECK_RULES as readonly CheckRuleInfo[]).find((rule) => rule.id === id);
}
