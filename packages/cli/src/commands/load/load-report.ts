// What `mcpwire load` prints: the result as one JSON object (--json) or as a text summary with a
// compact latency histogram. A server's words (error messages) reach the text only escaped.

import { toTerminalText } from '../../terminal/terminal-text.ts';
import { describeActual, formatMs, type AssertionOutcome } from './assertions.ts';
import type { HistogramBucket } from './histogram.ts';
import type { LoadErrorCount } from './load-tally.ts';
import type { LoadSchedule } from './load-run.ts';
import type { ProcessUsage } from './process-usage.ts';

/** The result of a run, as --json prints it. Latencies in ms. */
export interface LoadReport {
  target: string;
  transport: 'stdio' | 'http';
  era: 'handshake' | 'stateless' | undefined;
  protocolVersion: string | undefined;
  config: {
    mode: 'closed' | 'open';
    concurrency: number;
    connections: number;
    requests?: number;
    durationMs?: number;
    rate?: number;
    warmup: { requests: number } | { ms: number };
    seed: number;
    timeoutMs: number;
  };
  totals: { requests: number; ok: number; errors: number; warmupRequests: number; durationMs: number };
  rps: number;
  latencyMs: { min: number; mean: number; p50: number; p90: number; p99: number; p999: number; max: number };
  histogram: { buckets: HistogramBucket[] };
  errors: { total: number; rate: number; byKind: LoadErrorCount[] };
  steps: Array<{ step: string; weight: number; count: number }>;
  schedule?: LoadSchedule;
  server: { processes: ProcessUsage[] } | { unavailable: string };
  driver: { cpuMs: number };
  assertions: AssertionOutcome[];
}

/** How many rows the text histogram has at most, and its bars' width. */
const HISTOGRAM_ROWS = 10;
const BAR_WIDTH = 40;

/** The text summary of `report`. */
export function formatLoadReport(report: LoadReport): string {
  const { config, totals, latencyMs: latency } = report;
  const mode =
    config.mode === 'open'
      ? `open model at ${config.rate} requests/s (at most ${config.concurrency} in flight)`
      : `closed loop, ${config.concurrency} worker${config.concurrency === 1 ? '' : 's'}`;
  const lines = [
    `mcpwire load: ${toTerminalText(report.target)} (${report.transport}, ${report.protocolVersion ?? 'unknown revision'})`,
    `  ${mode} over ${config.connections} connection${config.connections === 1 ? '' : 's'}`,
    '',
    `  requests    ${count(totals.requests)} in ${(totals.durationMs / 1000).toFixed(2)} s (and ${count(totals.warmupRequests)} warm-up)`,
    `  throughput  ${report.rps.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} requests/s`,
    `  errors      ${count(report.errors.total)} (${(report.errors.rate * 100).toFixed(2)}%)`,
    `  latency ms  min ${formatMs(latency.min)}  mean ${formatMs(latency.mean)}  p50 ${formatMs(latency.p50)}  ` +
      `p90 ${formatMs(latency.p90)}  p99 ${formatMs(latency.p99)}  p99.9 ${formatMs(latency.p999)}  max ${formatMs(latency.max)}`,
  ];
  if (report.schedule !== undefined) {
    const { scheduled, sent, late, dropped } = report.schedule;
    lines.push(
      `  schedule    ${count(scheduled)} scheduled, ${count(sent)} sent (${count(late)} late), ${count(dropped)} dropped`,
    );
  }
  lines.push(...histogramLines(report.histogram.buckets, latency.min, latency.max));
  if (report.errors.byKind.length > 0) {
    lines.push('', '  errors by kind (first message)');
    const width = Math.max(...report.errors.byKind.map((error) => kindOf(error).length));
    for (const error of report.errors.byKind)
      lines.push(
        `    ${kindOf(error).padEnd(width)}  ${count(error.count)}  ${toTerminalText(error.firstMessage)}`,
      );
  }
  if (report.steps.length > 1) {
    lines.push('', '  steps (weight: requests)');
    for (const step of report.steps)
      lines.push(`    ${toTerminalText(step.step)}  ${step.weight}: ${count(step.count)}`);
  }
  lines.push('', ...usageLines(report));
  if (report.assertions.length > 0) {
    lines.push('', '  assertions');
    const width = Math.max(...report.assertions.map((outcome) => outcome.expression.length));
    for (const outcome of report.assertions)
      lines.push(
        `    ${outcome.expression.padEnd(width)}  ${outcome.passed ? 'passed' : 'FAILED'} (${describeActual(outcome)})`,
      );
  }
  return `${lines.join('\n')}\n`;
}

function kindOf(error: LoadErrorCount): string {
  return error.code === undefined ? error.kind : `${error.kind} ${error.code}`;
}

function usageLines(report: LoadReport): string[] {
  const seconds = report.totals.durationMs / 1000;
  const percent = (ms: number): string =>
    seconds > 0 ? ` (${((ms / 1000 / seconds) * 100).toFixed(0)}% of a core)` : '';
  const lines: string[] = [];
  if ('unavailable' in report.server)
    lines.push(`  server      CPU and memory not measured: ${report.server.unavailable}`);
  else
    for (const usage of report.server.processes)
      lines.push(
        `  server      pid ${usage.pid}: CPU ${(usage.cpuMs / 1000).toFixed(2)} s${percent(usage.cpuMs)}, peak RSS ${(usage.peakRssBytes / 1048576).toFixed(1)} MiB`,
      );
  lines.push(`  driver      CPU ${(report.driver.cpuMs / 1000).toFixed(2)} s${percent(report.driver.cpuMs)}`);
  return lines;
}

/** Up to HISTOGRAM_ROWS rows, log-spaced from min to max, each with its count and a bar. */
function histogramLines(buckets: readonly HistogramBucket[], min: number, max: number): string[] {
  if (buckets.length === 0) return [];
  const rows = HISTOGRAM_ROWS;
  const isLog = min > 0 && max / min > 4;
  const edge = (row: number): number =>
    isLog ? min * Math.pow(max / min, row / rows) : min + ((max - min) * row) / rows;
  const counts = new Array<number>(rows).fill(0);
  for (const bucket of buckets) {
    const middle = Math.min(max, Math.max(min, (bucket.fromMs + bucket.toMs) / 2));
    let row = 0;
    while (row < rows - 1 && middle >= edge(row + 1)) row++;
    counts[row]! += bucket.count;
  }
  const largest = Math.max(...counts);
  const lines = ['', '  latency histogram (ms)'];
  for (let row = 0; row < rows; row++) {
    if (max === min && row > 0) break;
    const bar = '#'.repeat(Math.round((counts[row]! / largest) * BAR_WIDTH));
    lines.push(
      `    ${formatMs(edge(row)).padStart(9)} - ${formatMs(max === min ? max : edge(row + 1)).padEnd(9)} ${count(counts[row]!).padStart(9)}  ${bar}`,
    );
  }
  return lines;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
