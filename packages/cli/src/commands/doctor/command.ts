// `mcpwire doctor <target>`: why a server cannot be reached or used, step by step: one line per
// step, the first failure with its cause and what to change; exit 0 healthy, 1 a step failed.

import type { Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';
import type { TargetCommandOptions } from '../../target/one-shot.ts';
import type { ProgramContext } from '../../program-context.ts';
import { addTargetOptions, targetArgument } from '../../target/target-options.ts';

/**
 * The doctor's default --timeout: a server silent for 10 s is a finding, and with the shutdown of
 * a server that ignores the end of stdin (2 s more, then SIGTERM) the run stays within 15 s.
 */
export const DOCTOR_TIMEOUT_SECONDS = 10;

/** The `doctor` command. */
export function doctorCommand(context: ProgramContext): Command {
  const command = defineCommand('doctor')
    .summary('check each step of reaching a server and say which one fails')
    .description(
      'Runs each step of reaching a server and says which one fails and why. Over stdio: the command ' +
        'is found and starts, stdout carries nothing but JSON-RPC messages. Over HTTP: the name ' +
        'resolves (DNS), the port accepts connections (TCP), the certificate verifies (TLS), the ' +
        'endpoint answers MCP. Then the era and version negotiation, the handshake, and listing each ' +
        'primitive the server declares. With --auth, the OAuth flow of a protected server, one ' +
        'exchange per line, in between. It waits ' +
        `${DOCTOR_TIMEOUT_SECONDS} s for the server by default (--timeout), so a server that never answers ` +
        'is reported in seconds. Exit 0 when every step passed, 1 when one failed.',
    )
    .addArgument(targetArgument());
  addTargetOptions(command, {
    hasJson: true,
    isAuthOptIn: true,
    defaultTimeoutSeconds: DOCTOR_TIMEOUT_SECONDS,
  }).action(async (operand: string, options: TargetCommandOptions) => {
    const { doctor } = await import('./doctor.ts');
    process.exitCode = await doctor(operand, context.commandAfterDash, options);
  });
  return addExamples(command, [
    ['mcpwire doctor -- npx -y @modelcontextprotocol/server-everything', 'a server your host starts'],
    ['mcpwire doctor https://example.com/mcp', 'a remote server: DNS, TCP, TLS, then MCP'],
    ['mcpwire doctor github --trace', 'a server of your host config, every message shown'],
    [
      'mcpwire doctor --auth https://example.com/mcp',
      'the OAuth flow step by step: 401, metadata, registration, consent, token, the retried call',
    ],
  ]);
}
