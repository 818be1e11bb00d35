// The lint engine's entry: rules over transcript entries, offline (`mcpwire lint`) and live
// (`mcpwire tap`). See rules.ts for what each rule finds and the requirement it cites.

export { formatFinding, type Finding } from './finding.ts';
export { Linter, type LinterOptions } from './linter.ts';
export { lintSink, lintTranscript } from './lint-sink.ts';
export { lookupRule, RULES, type Rule, type RuleId, type Severity } from './rules.ts';
