#!/usr/bin/env node
// The `mcpwire` command (package.json `bin`): parses the arguments, then serves, runs the demo, or
// prints help or the version. Exit codes: 0 success, 1 failure, 2 usage error.

import { HELP_TEXT, parseCommand, UsageError, type Command } from './arguments.ts';
import { PACKAGE_VERSION } from './package-info.ts';

/** After `serve` finishes, how long stray handles may keep the process alive before it exits anyway. */
const EXIT_GRACE_MS = 500;

async function run(command: Command): Promise<number> {
  switch (command.kind) {
    case 'help':
      process.stdout.write(HELP_TEXT);
      return 0;
    case 'version':
      process.stdout.write(`${PACKAGE_VERSION}\n`);
      return 0;
    case 'serve': {
      // Loaded on demand: `serve` starts fast and never loads the client, `demo` never the servers;
      // the HTTP stack only with --http.
      const { SERVER_FACTORIES, serveStdio } = await import('./serve.ts');
      const server = SERVER_FACTORIES[command.server]();
      if (command.port !== undefined) {
        const { serveOverHttp } = await import('./serve-http.ts');
        await serveOverHttp(server, command.port);
        setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
        return 0;
      }
      await serveStdio(server);
      // stdin is closed: leave even if a handler still holds a timer (STDIO-2: exit when stdin closes).
      setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
      return 0;
    }
    case 'demo': {
      const { runDemo } = await import('./demo.ts');
      return runDemo();
    }
  }
}

function main(argv: readonly string[]): void {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`mcpwire: ${error.message} (see "mcpwire --help")\n`);
    process.exitCode = 2;
    return;
  }
  run(command).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`mcpwire: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

main(process.argv.slice(2));
