// A finding of `mcpwire check`: one rule broken by one definition (or by the server as a whole), what
// is wrong and what to change. Shared by the rules, the output formats and the pin comparison.

import type { Definition, DefinitionKind } from './definition.ts';

/** How bad a finding is: an error fails the check (exit 1); a warning or a note does not. */
export type CheckSeverity = 'error' | 'warning' | 'note';

/** One rule broken at one definition. */
export interface CheckFinding {
  /** The rule's stable id, e.g. `spec/tool-name` (see CHECK_RULES). */
  rule: string;
  severity: CheckSeverity;
  /** The kind of the definition, or `server` for a finding about the whole listing (a tool count). */
  kind: DefinitionKind | 'server';
  /** The definition's name (uri for a resource, uriTemplate for a template); empty for `server`. */
  name: string;
  /** What is wrong, in one sentence or two. Server text in it is raw: outputs escape it. */
  message: string;
  /** What to change. */
  fix: string;
}

/** What a rule's check function gets. */
export interface CheckContext {
  /** The negotiated protocol revision. */
  protocolVersion: string;
  /** The clients `--clients` named; undefined: every client in the table, their findings as warnings. */
  clients: readonly string[] | undefined;
  /** The tools and prompts listed a second time in the same connection (poison/listing-changed). */
  relisted?: readonly Definition[] | undefined;
}
