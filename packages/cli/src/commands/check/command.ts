// `mcpwire check <target>`: lists everything a server offers and checks each definition against the
// spec, the model APIs and hosts that will receive it, poisoning heuristics and hygiene rules; with
// --pin, against a lock file too. A line per finding; exit 1 on any error (see ../check/).

import { readFileSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { CHECK_RULES, lookupCheckRule } from '../../check/check-rules.ts';
import { CLIENTS, lookupClient } from '../../check/rules/client-table.ts';
import { coloursFor } from '../../terminal/colours.ts';
import { addExamples, defineCommand } from '../../define-command.ts';
import { UsageError } from '../../exit-code.ts';
import type { TargetCommandOptions } from '../../target/one-shot.ts';
import type { ProgramContext } from '../../program-context.ts';
import { addTargetOptions, runOneShotCommand, targetArgument } from '../../target/target-options.ts';

/** The options of `check` besides the target options. */
interface CheckOptions extends TargetCommandOptions {
  format: 'text' | 'json' | 'sarif';
  clients?: string[];
  pin?: string;
  ignore?: string[];
  call?: string[];
}

const DESCRIPTION =
  "Check every definition a server offers (tools, prompts, resources, resource templates; all pages): the spec's " +
  'rules for the negotiated revision, what each model API and host refuses (--clients), hidden characters and ' +
  'instructions aimed at the model, and hygiene. With --pin, also what was added, removed or changed since ' +
  '"mcpwire pin" wrote the lock file. With --call, also calls the tools it names (and no other), once each, ' +
  'and checks their results: structuredContent against the outputSchema, and its JSON mirrored in a text block. One finding per line: severity, rule, definition, what is wrong and what to ' +
  'change. Exits 1 when any finding is an error, 0 otherwise, 2 for a usage error, 3 when the server cannot be ' +
  'reached.';

/** The `check` command. */
export function checkCommand(context: ProgramContext): Command {
  const command = defineCommand('check')
    .summary("check a server's definitions: spec, model API limits, poisoning, hygiene, a pin")
    .description(DESCRIPTION)
    .addArgument(targetArgument())
    .addOption(
      new Option('--format <format>', 'text, json or sarif (SARIF 2.1.0, for GitHub code scanning)')
        .choices(['text', 'json', 'sarif'])
        .default('text'),
    )
    .option(
      '--clients <list>',
      `check against these clients only (comma-separated: ${CLIENTS.map((client) => client.id).join(', ')}); their findings are errors. Default: all, as warnings`,
      parseClients,
    )
    .option('--pin <file>', 'compare with this lock file (written by "mcpwire pin"): added, removed, changed')
    .option('--ignore <rule>', 'do not report this rule (repeatable)', collectRule)
    .option(
      '--call <tool [key=value ...]>',
      'after listing, call this tool once and check its result (repeatable; arguments as in "mcpwire call", quoted as in a shell); only the tools named are called',
      (value: string, previous: string[] = []) => [...previous, value],
    );
  addTargetOptions(command, { hasJson: false }).action(async (operand: string, options: CheckOptions) => {
    const pin = options.pin === undefined ? undefined : await readPin(options.pin);
    await runOneShotCommand(operand, context, options, 'check', async (oneShot) => {
      const { runCheck } = await import('../../check/run-check.ts');
      return runCheck(oneShot, {
        format: options.format,
        clients: options.clients,
        ignore: options.ignore ?? [],
        pin,
        calls: options.call,
      });
    });
  });
  command.addHelpText('after', rulesHelp());
  return addExamples(command, [
    ['mcpwire check -- node ./dist/server.js', 'check a server started over stdio'],
    [
      'mcpwire check --clients openai,anthropic http://127.0.0.1:3000/mcp',
      'fail (exit 1) on anything OpenAI or Anthropic would refuse',
    ],
    [
      'mcpwire check --call \'get_weather city="New York"\' -- node ./dist/server.js',
      'also call a tool once and check its result against its outputSchema',
    ],
    ['mcpwire pin -o mcp-lock.json -- node ./dist/server.js', 'pin the definitions once reviewed'],
    [
      'mcpwire check --pin mcp-lock.json --format sarif -- node ./dist/server.js > check.sarif',
      'in CI: every finding and every change since the pin, for GitHub code scanning',
    ],
  ]);
}

function parseClients(value: string, previous: string[] = []): string[] {
  const ids = value
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  const unknown = ids.filter((id) => lookupClient(id) === undefined);
  if (unknown.length > 0 || ids.length === 0)
    throw new InvalidArgumentError(
      `unknown client ${unknown.map((id) => JSON.stringify(id)).join(', ') || '(none given)'}; known: ${CLIENTS.map((client) => client.id).join(', ')}.`,
    );
  return [...new Set([...previous, ...ids])];
}

function collectRule(value: string, previous: string[] = []): string[] {
  if (lookupCheckRule(value) === undefined)
    throw new InvalidArgumentError(
      `unknown rule ${JSON.stringify(value)}; see the rules in "mcpwire check --help".`,
    );
  return [...previous, value];
}

async function readPin(
  file: string,
): Promise<{ file: string; lock: import('../../check/lock-file.ts').LockFile }> {
  const { parseLockFile } = await import('../../check/lock-file.ts');
  try {
    return { file, lock: parseLockFile(readFileSync(file, 'utf8')) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`--pin ${file}: ${reason}`);
  }
}

/** The "Rules:" section of the help: id, default severity, summary. */
function rulesHelp(): string {
  const colours = coloursFor(process.stdout);
  const width = Math.max(...CHECK_RULES.map((rule) => rule.id.length)) + 2;
  const lines = CHECK_RULES.map(
    (rule) => `  ${colours.green(rule.id.padEnd(width))}${rule.severity.padEnd(9)}${rule.summary}`,
  );
  return `\n${colours.bold('Rules:')} (the default severity; compat/* rules are errors for the clients --clients names)\n${lines.join('\n')}\n`;
}
