// How a rule reports: a finding with the rule's default severity and the requirement of the era
// the message belongs to, placed at the entry being linted unless the rule names another place.

import type { Finding } from './finding.ts';
import { lookupRule, type RuleId, type Severity } from './rules.ts';

/** What a rule may set on a finding besides its message. */
export interface ReportOptions {
  /** A more precise requirement than the rule's default (e.g. TOOL-1 for tools/call without `tools`). */
  requirement?: string | undefined;
  severity?: Severity | undefined;
  /** Another place than the entry being linted (an HTTP request whose header is wrong). */
  line?: number | undefined;
  t?: number | undefined;
}

/** Builds a finding: severity and requirement default to the rule's, for the era given. */
export function createFinding(
  rule: RuleId,
  message: string,
  options: ReportOptions & { isStateless: boolean },
): Finding {
  const known = lookupRule(rule)!;
  const { handshake, stateless } = known.requirements as { handshake?: string; stateless?: string };
  const requirement =
    options.requirement ?? (options.isStateless ? (stateless ?? handshake) : (handshake ?? stateless));
  const finding: Finding = { rule, severity: options.severity ?? known.severity, message };
  if (requirement !== undefined) finding.requirement = requirement;
  if (options.t !== undefined) finding.t = options.t;
  if (options.line !== undefined) finding.line = options.line;
  return finding;
}

const NO_FINDINGS: readonly Finding[] = Object.freeze([]);

/** Collects the findings of one entry at a time: {@link begin} it, rules report, {@link take} them. */
export class Reporter {
  /** Whether the message belongs to 2026-07-28 (picks the rule's stateless-era requirement). */
  isStateless = false;
  #t = 0;
  #line: number | undefined;
  #findings: Finding[] | undefined;

  /** Starts the next entry (what was not taken is dropped). */
  begin(t: number, line: number | undefined, isStateless: boolean): void {
    this.#t = t;
    this.#line = line;
    this.isStateless = isStateless;
    this.#findings = undefined;
  }

  /** Reports `rule` broken, saying what is wrong and what to do. */
  report(rule: RuleId, message: string, options: ReportOptions = {}): void {
    (this.#findings ??= []).push(
      createFinding(rule, message, {
        t: this.#t,
        line: this.#line,
        ...stripUndefined(options),
        isStateless: this.isStateless,
      }),
    );
  }

  /** Adds findings made elsewhere (the schema rule's), in order. */
  add(findings: readonly Finding[]): void {
    if (findings.length > 0) (this.#findings ??= []).push(...findings);
  }

  /**
   * The entry's findings, in the order reported; the reporter keeps none. Most entries have none:
   * they all get the same empty, frozen array (no allocation per message).
   */
  take(): readonly Finding[] {
    const findings = this.#findings ?? NO_FINDINGS;
    this.#findings = undefined;
    return findings;
  }
}

function stripUndefined(options: ReportOptions): ReportOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}
