// `mcpwire load` from the parsed command line to the exit code: the checks that need no server,
// the connections (N processes over stdio, N clients over HTTP), the steps checked against the
// server, the run with its progress line, the CPU and memory of the servers, the report, --assert.

import type { Client } from 'mcpwire/client';
import { readFile } from 'node:fs/promises';
import { CliError, ExitCode, UsageError, type ExitCodeValue } from '../../exit-code.ts';
import type { TargetCommandOptions } from '../../target/one-shot.ts';
import { ProgressLine } from '../../terminal/progress-line.ts';
import { authOf } from '../../oauth/auth-options.ts';
import { toCliError } from '../../target/open-client.ts';
import { resolveCommandTarget } from '../../target/target.ts';
import { toTerminalJson, toTerminalText } from '../../terminal/terminal-text.ts';
import { describeActual, evaluateAssertions, parseAssertions, type LoadAssertion } from './assertions.ts';
import { callArguments } from './call-arguments.ts';
import { formatLoadReport, type LoadReport } from './load-report.ts';
import { LoadConnection } from './load-connection.ts';
import { LoadRun, type LoadStop, type LoadWarmup } from './load-run.ts';
import { LoadWire } from './load-wire.ts';
import { compileSteps } from './load-steps.ts';
import { readCpuMs, readPeakRssBytes, usageUnavailableReason } from './process-usage.ts';
import { LoadRandom } from './random.ts';
import { parseScenario, type ScenarioStep } from './scenario.ts';

/** The options of `load` besides the target options (times already in ms). */
export interface LoadOptions extends TargetCommandOptions {
  call?: string;
  scenario?: string;
  concurrency?: number;
  connections: number;
  duration?: number;
  requests?: number;
  rate?: number;
  warmup?: LoadWarmup;
  seed?: number;
  assert?: string[];
}

/** Workers of the closed loop, and the cap on requests in flight of the open model, unless given. */
const DEFAULT_CONCURRENCY = { closed: 10, open: 100 };
const DEFAULT_DURATION_MS = 10_000;
const DEFAULT_WARMUP_MS = 1000;
/** With --requests N, the default warm-up is N/10 requests, at most this many. */
const MAX_DEFAULT_WARMUP_REQUESTS = 100;
/** How often the progress line is redrawn. */
const PROGRESS_MS = 250;

/** Runs `load` against `operand`; resolves with the exit code, rejects with a CliError. */
export async function runLoad(
  operand: string,
  pairs: readonly string[],
  commandAfterDash: readonly string[] | undefined,
  options: LoadOptions,
): Promise<ExitCodeValue> {
  const checked = checkOptions(pairs, options);
  const scenario = await readScenario(options, pairs);
  const target = await resolveCommandTarget(operand, commandAfterDash, options);
  const controller = new AbortController();
  const interrupt = (): void => controller.abort('interrupted (Ctrl-C)');
  process.once('SIGINT', interrupt);
  const opened: LoadConnection[] = [];
  try {
    await openConnections(target, options, controller.signal, opened);
    return await measure(target, opened, scenario, checked, options, controller.signal);
  } catch (error) {
    throw toCliError(error, 'load', opened[0]?.stderrTail());
  } finally {
    process.removeListener('SIGINT', interrupt);
    await Promise.all(opened.map((connection) => connection[Symbol.asyncDispose]()));
  }
}

interface CheckedOptions {
  assertions: LoadAssertion[];
  stop: LoadStop;
  warmup: LoadWarmup;
  concurrency: number;
  seed: number;
}

/** What can be judged before connecting: every problem a UsageError (exit 2), nothing sent. */
function checkOptions(pairs: readonly string[], options: LoadOptions): CheckedOptions {
  if (options.trace === true || options.record !== undefined)
    throw new UsageError(
      '--trace and --record are not for load (every request would be written); use them with "mcpwire call"',
    );
  if ((options.call === undefined) === (options.scenario === undefined))
    throw new UsageError('give either --call <tool> [key=value...] or --scenario <file>');
  if (options.scenario !== undefined && pairs.length > 0)
    throw new UsageError(
      `key=value arguments go with --call; a scenario's steps carry their own (${pairs[0]})`,
    );
  if (options.requests !== undefined && options.duration !== undefined)
    throw new UsageError('give --requests or --duration, not both');
  const stop: LoadStop =
    options.requests !== undefined
      ? { requests: options.requests }
      : { durationMs: options.duration ?? DEFAULT_DURATION_MS };
  const warmup: LoadWarmup =
    options.warmup ??
    ('requests' in stop
      ? { requests: Math.min(MAX_DEFAULT_WARMUP_REQUESTS, Math.ceil(stop.requests / 10)) }
      : { ms: DEFAULT_WARMUP_MS });
  return {
    assertions: parseAssertions(options.assert ?? []),
    stop,
    warmup,
    concurrency:
      options.concurrency ??
      (options.rate === undefined ? DEFAULT_CONCURRENCY.closed : DEFAULT_CONCURRENCY.open),
    seed: options.seed ?? Math.floor(Math.random() * 0x100000000),
  };
}

/** The scenario file's steps, or the one step of --call (its key=value pairs compiled later). */
async function readScenario(options: LoadOptions, pairs: readonly string[]): Promise<ScenarioStep[]> {
  if (options.scenario === undefined)
    return [
      { weight: 1, kind: 'call', target: options.call!, arguments: {}, path: '--call', pairs: [...pairs] },
    ];
  let text: string;
  try {
    text = await readFile(options.scenario, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--scenario ${options.scenario}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  return parseScenario(text, options.scenario);
}

type LoadTarget = Awaited<ReturnType<typeof resolveCommandTarget>>;

/**
 * Opens `options.connections` connections into `opened` (all at once: N processes, or N HTTP
 * clients), sharing one LoadWire: the requests the wire engine sends, taken from their Clients.
 */
async function openConnections(
  target: LoadTarget,
  options: LoadOptions,
  signal: AbortSignal,
  opened: LoadConnection[],
): Promise<void> {
  const wire = new LoadWire({ isHttp: target.kind === 'http' });
  const attempts = Array.from({ length: options.connections }, () =>
    LoadConnection.open(
      target,
      {
        era: options.era,
        timeoutMs: options.timeout * 1000,
        isVerbose: options.verbose === true,
        signal,
        ...(options.maxMessageSize === undefined ? {} : { maxMessageBytes: options.maxMessageSize }),
        ...authOf(options),
      },
      wire,
    ).then((connection) => {
      opened.push(connection);
      return connection;
    }),
  );
  const settled = await Promise.allSettled(attempts);
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
}

async function measure(
  target: LoadTarget,
  opened: readonly LoadConnection[],
  scenario: readonly ScenarioStep[],
  checked: CheckedOptions,
  options: LoadOptions,
  signal: AbortSignal,
): Promise<ExitCodeValue> {
  const first = opened[0]!.client;
  const random = new LoadRandom(checked.seed);
  const withArguments = await Promise.all(
    scenario.map(async (step) =>
      step.pairs === undefined
        ? step
        : { ...step, arguments: await callArguments(first, step, random, signal) },
    ),
  );
  const steps = await compileSteps(withArguments, first, random, signal);
  const pids = opened.map((connection) => connection.pid);
  const unavailable = usageUnavailableReason(pids);
  let cpuAtStart: number[] = [];
  let driverAtStart = process.cpuUsage();
  const run = new LoadRun({
    steps,
    connections: opened,
    random,
    concurrency: checked.concurrency,
    stop: checked.stop,
    warmup: checked.warmup,
    ...(options.rate === undefined ? {} : { rate: options.rate }),
    onMeasureStart: () => {
      cpuAtStart = pids.map((pid) => (pid === undefined ? 0 : (readCpuMs(pid) ?? 0)));
      driverAtStart = process.cpuUsage();
    },
  });
  const onAbort = (): void => run.stop();
  signal.addEventListener('abort', onAbort);
  try {
    await withProgress(run, checked.stop, () => run.run());
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  const driver = process.cpuUsage(driverAtStart);
  const report = buildReport(target, first, run, steps, checked, options);
  report.driver = { cpuMs: (driver.user + driver.system) / 1000 };
  report.server =
    unavailable !== undefined
      ? { unavailable }
      : {
          processes: pids.map((pid, index) => ({
            pid: pid!,
            cpuMs: Math.max(0, (readCpuMs(pid!) ?? 0) - cpuAtStart[index]!),
            peakRssBytes: readPeakRssBytes(pid!) ?? 0,
          })),
        };
  process.stdout.write(
    options.json === true ? `${toTerminalJson(JSON.stringify(report, null, 2))}\n` : formatLoadReport(report),
  );
  return exitCodeOf(run, report, signal);
}

/** Runs `body` with the progress line on stderr when it is a terminal: requests, rate, errors, time. */
async function withProgress(run: LoadRun, stop: LoadStop, body: () => Promise<void>): Promise<void> {
  if (process.stderr.isTTY !== true) return body();
  using line = new ProgressLine(process.stderr, 'load');
  const timer = setInterval(() => {
    const seconds = run.measuringMs / 1000;
    const requests = run.tally.requests;
    const rate = seconds > 0 ? (requests / seconds).toFixed(0) : '0';
    line.show({
      progress: run.isMeasuring ? requests : run.warmupRequests,
      ...('requests' in stop && run.isMeasuring ? { total: stop.requests } : {}),
      message: run.isMeasuring
        ? `requests, ${rate}/s, ${run.tally.errors} errors, ${seconds.toFixed(1)} s`
        : 'warm-up requests',
    });
  }, PROGRESS_MS);
  try {
    await body();
  } finally {
    clearInterval(timer);
  }
}

function buildReport(
  target: LoadTarget,
  client: Client,
  run: LoadRun,
  steps: ReadonlyArray<{ label: string; weight: number }>,
  checked: CheckedOptions,
  options: LoadOptions,
): LoadReport {
  const { tally } = run;
  const histogram = tally.histogram;
  const seconds = run.elapsedMs / 1000;
  const rps = seconds > 0 ? tally.requests / seconds : 0;
  const errorRate = tally.requests === 0 ? 0 : tally.errors / tally.requests;
  const latencyMs = {
    min: histogram.min,
    mean: histogram.mean,
    p50: histogram.percentile(50),
    p90: histogram.percentile(90),
    p99: histogram.percentile(99),
    p999: histogram.percentile(99.9),
    max: histogram.max,
  };
  const schedule = run.schedule;
  return {
    target: target.label,
    transport: target.kind,
    era: client.era,
    protocolVersion: client.protocolVersion,
    config: {
      mode: options.rate === undefined ? 'closed' : 'open',
      concurrency: checked.concurrency,
      connections: options.connections,
      ...('requests' in checked.stop
        ? { requests: checked.stop.requests }
        : { durationMs: checked.stop.durationMs }),
      ...(options.rate === undefined ? {} : { rate: options.rate }),
      warmup: checked.warmup,
      seed: checked.seed,
      timeoutMs: options.timeout * 1000,
    },
    totals: {
      requests: tally.requests,
      ok: tally.ok,
      errors: tally.errors,
      warmupRequests: run.warmupRequests,
      durationMs: run.elapsedMs,
    },
    rps,
    latencyMs,
    histogram: { buckets: histogram.buckets() },
    errors: { total: tally.errors, rate: errorRate, byKind: tally.errorCounts() },
    steps: steps.map((step, index) => ({
      step: step.label,
      weight: step.weight,
      count: tally.stepCounts[index]!,
    })),
    ...(schedule === undefined ? {} : { schedule }),
    server: { unavailable: '' },
    driver: { cpuMs: 0 },
    assertions: evaluateAssertions(checked.assertions, {
      ...latencyMs,
      errors: tally.errors,
      errorRate,
      rps,
    }),
  };
}

/**
 * 130 after Ctrl-C; 3 when every connection closed during the run (a line says so); 1 when an
 * assertion failed (a line for each on stderr); else 0.
 */
function exitCodeOf(run: LoadRun, report: LoadReport, signal: AbortSignal): ExitCodeValue {
  if (signal.aborted) return ExitCode.interrupted;
  if (run.closedConnections > 0) {
    const first = report.errors.byKind.find((error) => error.kind === 'transport');
    throw new CliError(
      `load: ${run.closedConnections} of ${report.config.connections} connection(s) closed during the run${first === undefined ? '' : `: ${first.firstMessage}`}`,
      ExitCode.connection,
    );
  }
  const failed = report.assertions.filter((outcome) => !outcome.passed);
  for (const outcome of failed)
    process.stderr.write(
      `mcpwire: assertion failed: ${outcome.expression} (${toTerminalText(describeActual(outcome))})\n`,
    );
  return failed.length > 0 ? ExitCode.failed : ExitCode.ok;
}
