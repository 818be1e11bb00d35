// The three forms of a check report: text (a line per finding and a summary, every server string
// through toTerminalText), JSON, and SARIF 2.1.0 for GitHub code scanning.

import type { Colours } from '../terminal/colours.ts';
import { toTerminalText } from '../terminal/terminal-text.ts';
import type { CheckFinding, CheckSeverity } from './check-finding.ts';
import { CHECK_RULES } from './check-rules.ts';
import { KIND_PLURALS, type DefinitionKind, type ServerListing } from './definition.ts';

/** A finding as one line: `<severity> <rule> <kind> <name>: <message> Fix: <fix>`. */
export function formatCheckFinding(finding: CheckFinding, colours?: Colours): string {
  const severity =
    colours === undefined
      ? finding.severity
      : finding.severity === 'error'
        ? colours.red(finding.severity)
        : finding.severity === 'warning'
          ? colours.yellow(finding.severity)
          : colours.dim(finding.severity);
  const where = finding.kind === 'server' ? 'server' : `${finding.kind} ${finding.name}`;
  return toTerminalText(`${where}: ${finding.message} Fix: ${finding.fix}`).replace(
    /^/,
    `${severity} ${finding.rule} `,
  );
}

/** One `--call` made: the tool and the arguments as sent. */
export interface SampleCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What a report says besides the listing and the findings. */
export interface ReportOptions {
  colours?: Colours | undefined;
  /** The `--call` calls made, in order. */
  sampleCalls?: readonly SampleCall[] | undefined;
}

/** The whole text report: the findings, then a summary line (naming the sample calls, if any). */
export function toTextReport(
  listing: ServerListing,
  findings: readonly CheckFinding[],
  options: ReportOptions = {},
): string {
  const { colours, sampleCalls = [] } = options;
  const lines = findings.map((finding) => formatCheckFinding(finding, colours));
  const calls =
    sampleCalls.length === 0
      ? ''
      : `; sample calls: ${toTerminalText(sampleCalls.map((call) => call.name).join(', '))}`;
  const what = `${countKinds(listing)} of ${toTerminalText(`${listing.server.name} ${listing.server.version}`)} (${toTerminalText(listing.protocolVersion)})${calls}`;
  const count = (severity: CheckSeverity, word: string): string => {
    const n = findings.filter((finding) => finding.severity === severity).length;
    return `${n} ${word}${n === 1 ? '' : 's'}`;
  };
  lines.push(
    findings.length === 0
      ? `No findings: ${what}.`
      : `${count('error', 'error')}, ${count('warning', 'warning')}, ${count('note', 'note')}: ${what}.`,
  );
  return `${lines.join('\n')}\n`;
}

function countKinds(listing: ServerListing): string {
  const kinds = Object.keys(KIND_PLURALS) as DefinitionKind[];
  return kinds
    .map((kind) => {
      const n = listing.definitions.filter((definition) => definition.kind === kind).length;
      return `${n} ${KIND_PLURALS[kind][n === 1 ? 0 : 1]}`;
    })
    .join(', ');
}

/**
 * The JSON report: the server, its revision, the number of definitions per kind, the findings, and
 * with `--call` the calls made (`sampleCalls`).
 */
export function toJsonReport(
  listing: ServerListing,
  findings: readonly CheckFinding[],
  options: Pick<ReportOptions, 'sampleCalls'> = {},
): unknown {
  return {
    server: listing.server,
    protocolVersion: listing.protocolVersion,
    definitions: Object.fromEntries(
      (Object.keys(KIND_PLURALS) as DefinitionKind[]).map((kind) => [
        kind,
        listing.definitions.filter((definition) => definition.kind === kind).length,
      ]),
    ),
    findings,
    ...(options.sampleCalls === undefined || options.sampleCalls.length === 0
      ? {}
      : { sampleCalls: options.sampleCalls }),
  };
}

/** SARIF levels for our severities (SARIF 2.1.0 section 3.27.10). */
const LEVEL: Record<CheckSeverity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  note: 'note',
};

/**
 * A SARIF 2.1.0 log: one run whose driver lists every rule, one result per finding. A definition is
 * a logical location (`tool/<name>`); `artifact` (the --pin lock file, when given) is the physical
 * location GitHub code scanning anchors results to.
 */
export function toSarif(
  listing: ServerListing,
  findings: readonly CheckFinding[],
  options: { version: string; artifact?: string | undefined },
): unknown {
  const index = new Map(CHECK_RULES.map((rule, i) => [rule.id as string, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mcpwire check',
            version: options.version,
            informationUri: 'https://github.com/mcpwire/mcpwire/blob/main/docs/check.md',
            rules: CHECK_RULES.map((rule) => ({
              id: rule.id,
              shortDescription: { text: rule.summary },
              fullDescription: { text: `${rule.summary} (${rule.source})` },
              defaultConfiguration: { level: LEVEL[rule.severity] },
            })),
          },
        },
        properties: { server: listing.server, protocolVersion: listing.protocolVersion },
        results: findings.map((finding) => ({
          ruleId: finding.rule,
          ruleIndex: index.get(finding.rule) ?? -1,
          level: LEVEL[finding.severity],
          message: { text: `${finding.message} Fix: ${finding.fix}` },
          locations: [
            {
              ...(options.artifact === undefined
                ? {}
                : { physicalLocation: { artifactLocation: { uri: options.artifact } } }),
              logicalLocations: [
                {
                  name: finding.kind === 'server' ? listing.server.name : finding.name,
                  fullyQualifiedName:
                    finding.kind === 'server' ? 'server' : `${finding.kind}/${finding.name}`,
                  kind: finding.kind === 'server' ? 'module' : 'member',
                },
              ],
            },
          ],
          partialFingerprints: { definition: `${finding.rule}:${finding.kind}/${finding.name}` },
        })),
      },
    ],
  };
}
