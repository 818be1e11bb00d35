// `mcpwire load <target> --call <tool> [key=value...] | --scenario <file>`: drives a server with
// many requests, closed loop or at a fixed rate, and reports throughput, latency percentiles and a
// histogram, errors by kind, and a stdio server's CPU and memory; --assert makes it a CI gate.

import { InvalidArgumentError, type Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';
import type { ProgramContext } from '../../program-context.ts';
import { addTargetOptions, targetArgument } from '../../target/target-options.ts';
import { ASSERT_FORMS } from './assertions.ts';
import type { LoadOptions } from './run-load.ts';
import { SCENARIO_EXAMPLE } from './scenario.ts';
import { TEMPLATE_FORMS } from './template.ts';
import { parseCount } from '../../arguments/option-values.ts';

const DESCRIPTION =
  'Send many requests to a server and measure it. Closed loop by default: --concurrency workers, each ' +
  'with one request in flight. With --rate, the open model: requests sent on a fixed timetable whatever ' +
  "the server's speed, each latency measured from its scheduled time (so a server that stalls shows it). " +
  'A warm-up runs first and is not measured. Prints throughput, latency percentiles and a histogram, ' +
  "errors by kind with the first message of each, and over stdio each server process's CPU time and " +
  'peak memory (Linux). Exit 0, or 1 when an --assert fails, 2 for a usage error, 3 when the server ' +
  'cannot be reached or every connection closed, 130 on Ctrl-C (after the report so far).';

/** The `load` command. */
export function loadCommand(context: ProgramContext): Command {
  const command = defineCommand('load')
    .summary('load-test a server: throughput, latency percentiles, errors, --assert for CI')
    .description(DESCRIPTION)
    .addArgument(targetArgument())
    .argument(
      '[arguments...]',
      "key=value arguments of --call, typed by the tool's input schema; templates allowed",
    )
    .option('--call <tool>', 'call this tool in every request')
    .option('--scenario <file>', 'a JSON file naming a weighted mix of calls, reads and gets (see below)')
    .option(
      '-c, --concurrency <n>',
      'closed loop: the workers (default 10); --rate: the most requests in flight (default 100)',
      parseCount,
    )
    .option(
      '--connections <n>',
      'stdio: server processes, the work spread over them; HTTP: clients (sessions in the handshake era)',
      parseCount,
      1,
    )
    .option('-d, --duration <time>', 'measure this long, e.g. 30s, 500ms, 2m (default 10s)', parseDuration)
    .option('-n, --requests <n>', 'measure exactly this many requests instead', parseCount)
    .option(
      '--rate <per-second>',
      'the open model: send this many requests a second, on a timetable',
      parseRate,
    )
    .option(
      '--warmup <n|time>',
      'requests (a number) or a time (1s) before measuring; default 1s, or with --requests N, N/10 requests (at most 100)',
      parseWarmup,
    )
    .option(
      '--seed <n>',
      'the seed of the step mix and {{random}}, {{pick}}, {{uuid}} (reported in --json; default random)',
      parseSeed,
    )
    .option(
      '--assert <list>',
      `exit 1 unless these hold, e.g. 'p99<50ms,errors=0,rps>1000' (repeatable): ${ASSERT_FORMS}`,
      collect,
    );
  addTargetOptions(command, { hasJson: true }).action(
    async (operand: string, pairs: string[], options: LoadOptions) => {
      const { runLoad } = await import('./run-load.ts');
      process.exitCode = await runLoad(operand, pairs, context.commandAfterDash, options);
    },
  );
  command.addHelpText(
    'after',
    `
Scenario file:
  ${SCENARIO_EXAMPLE}
  Each step has one of "call" (a tool), "read" (a resource URI) or "get" (a prompt), "arguments" (not
  for read) and "weight" (default 1): a step of weight 3 runs three times as often as one of weight 1.
  Tools and prompts are checked against the server before the run starts.

Templates, in argument strings and URIs (and in --call's key=value values):
  ${TEMPLATE_FORMS}.
  A value that is exactly one placeholder is a number where the tool's schema says number.
`,
  );
  return addExamples(command, [
    [
      'mcpwire load --call echo message=hi -c 20 -d 30s -- node ./dist/server.js',
      '20 workers for 30 s over stdio',
    ],
    [
      "mcpwire load http://127.0.0.1:3000/mcp --call echo message='hi {{i}}' --rate 500 -d 1m",
      '500 requests a second, latency from the timetable',
    ],
    [
      'mcpwire load --scenario mix.json -n 10000 --connections 4 -- node ./dist/server.js',
      'a mix over 4 server processes',
    ],
    [
      "mcpwire load --call search query=x -n 2000 --assert 'p99<50ms,errors=0' -- node ./dist/server.js",
      'in CI: exit 1 when the p99 or the errors break the budget',
    ],
  ]);
}

function parseRate(value: string): number {
  const rate = Number(value);
  if (!(Number.isFinite(rate) && rate > 0))
    throw new InvalidArgumentError('expected requests per second above 0.');
  return rate;
}

function parseSeed(value: string): number {
  const seed = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(Number.isSafeInteger(seed) && seed < 2 ** 32))
    throw new InvalidArgumentError('expected a whole number from 0 to 4294967295.');
  return seed;
}

const TIME = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;
const TIME_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `30s`, `500ms`, `2m`, `1h` in ms. */
function parseDuration(value: string): number {
  const match = TIME.exec(value.trim());
  const ms = match === null ? NaN : Number(match[1]) * TIME_MS[match[2]!]!;
  if (!(ms > 0)) throw new InvalidArgumentError('expected a time above 0 with its unit: 500ms, 30s, 2m, 1h.');
  return ms;
}

/** A number of requests (`20`, `0` for none) or a time (`1s`). */
function parseWarmup(value: string): { requests: number } | { ms: number } {
  if (/^\d+$/.test(value)) return { requests: Number(value) };
  const match = TIME.exec(value.trim());
  if (match === null)
    throw new InvalidArgumentError(
      'expected a number of requests (20, or 0 for none) or a time with its unit (1s, 500ms).',
    );
  return { ms: Number(match[1]) * TIME_MS[match[2]!]! };
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
