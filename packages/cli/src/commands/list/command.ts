// `mcpwire list <target> [kind]`: what a server offers (tools, resources, resource templates,
// prompts), every page of it, one line per item or the results as JSON.

import { Argument, type Command } from 'commander';
import type { Client } from 'mcpwire/client';
import type { Colours } from '../../terminal/colours.ts';
import { addExamples, defineCommand } from '../../define-command.ts';
import { ExitCode } from '../../exit-code.ts';
import type { OneShot, TargetCommandOptions } from '../../target/one-shot.ts';
import {
  formatPrompts,
  formatResources,
  formatTemplates,
  formatTools,
} from '../../terminal/result-format.ts';
import { addTargetOptions, runOneShotCommand, targetArgument } from '../../target/target-options.ts';
import type { ProgramContext } from '../../program-context.ts';
import type { RowLayout } from '../../terminal/row-layout.ts';
import { requireCapability } from '../../target/server-lookup.ts';

const KINDS = ['tools', 'resources', 'templates', 'prompts'] as const;
/** Lines of a description shown on a terminal without --long. */
const MAX_DESCRIPTION_LINES = 4;
/** The width assumed for a terminal that does not report one. */
const FALLBACK_COLUMNS = 80;

interface ListOptions extends TargetCommandOptions {
  long?: boolean;
}
type Kind = (typeof KINDS)[number];

/** The capability each kind needs of the server. */
const CAPABILITY: Record<Kind, 'tools' | 'resources' | 'prompts'> = {
  tools: 'tools',
  resources: 'resources',
  templates: 'resources',
  prompts: 'prompts',
};

/** How each kind is listed: its key in the --json object, its heading, the request, the lines. */
const LISTINGS: Record<
  Kind,
  {
    key: string;
    title: string;
    list: (client: Client, options: { signal: AbortSignal }) => Promise<unknown[]>;
    format: (items: never, colours: Colours, layout: RowLayout) => string;
  }
> = {
  tools: {
    key: 'tools',
    title: 'Tools',
    list: (client, options) => client.listAllTools(options),
    format: formatTools,
  },
  resources: {
    key: 'resources',
    title: 'Resources',
    list: (client, options) => client.listAllResources(options),
    format: formatResources,
  },
  templates: {
    key: 'resourceTemplates',
    title: 'Resource templates',
    list: (client, options) => client.listAllResourceTemplates(options),
    format: formatTemplates,
  },
  prompts: {
    key: 'prompts',
    title: 'Prompts',
    list: (client, options) => client.listAllPrompts(options),
    format: formatPrompts,
  },
};

/** The `list` command. */
export function listCommand(context: ProgramContext): Command {
  const command = defineCommand('list')
    .summary("list a server's tools, resources, resource templates and prompts")
    .description(
      'List what a server offers: its tools, resources, resource templates and prompts (all pages). ' +
        'With no kind, every kind the server declares (the others are skipped); a kind it does not ' +
        'declare exits 2. With --json, the list results as one JSON object ' +
        '(keys tools, resources, resourceTemplates, prompts). On a terminal each description is wrapped ' +
        'to its width and cut to its first paragraph, at most 4 lines (… marks the cut), so that the ' +
        'arguments always show; piped, descriptions are whole.',
    )
    .addArgument(targetArgument())
    .addArgument(new Argument('[kind]', 'only this kind').choices(KINDS))
    .option('-l, --long', 'on a terminal, whole descriptions (wrapped, never cut)');
  addTargetOptions(command, { hasJson: true }).action(
    async (operand: string, kind: Kind | undefined, options: ListOptions) => {
      await runOneShotCommand(operand, context, options, `list ${kind ?? ''}`.trim(), (oneShot) =>
        runList(oneShot, kind, layoutFor(process.stdout, options.long === true)),
      );
    },
  );
  return addExamples(command, [
    [
      'mcpwire list -- npx -y @modelcontextprotocol/server-everything',
      'everything a server started over stdio offers',
    ],
    ['mcpwire list http://127.0.0.1:3000/mcp tools', 'the tools of a server over Streamable HTTP'],
    ['mcpwire list --long tools -- npx -y @playwright/mcp', 'whole descriptions, wrapped to the terminal'],
    ['mcpwire list github prompts --json', 'the prompts of the "github" server of your host config, as JSON'],
    [
      'mcpwire list https://example.com/mcp',
      'a server behind OAuth: the URL to open is printed (and opened in your browser); the token is kept for next time',
    ],
    [
      'MCPWIRE_CLIENT_SECRET=... mcpwire list https://example.com/mcp --client-id my-app --scope "mcp:tools"',
      'with a client registered beforehand, asking for one scope',
    ],
  ]);
}

/**
 * On a terminal: wrapped to its width, descriptions cut unless `isLong`. Elsewhere (a pipe, a file)
 * nothing is wrapped or cut: a script gets every word.
 */
function layoutFor(stream: { isTTY?: boolean; columns?: number }, isLong: boolean): RowLayout {
  if (stream.isTTY !== true) return {};
  const width = stream.columns !== undefined && stream.columns > 0 ? stream.columns : FALLBACK_COLUMNS;
  return isLong ? { width } : { width, maxLines: MAX_DESCRIPTION_LINES };
}

async function runList(
  oneShot: OneShot,
  only: Kind | undefined,
  layout: RowLayout,
): Promise<typeof ExitCode.ok> {
  const { client, signal, colours } = oneShot;
  const capabilities = client.serverCapabilities ?? {};
  const kinds = KINDS.filter((kind) => capabilities[CAPABILITY[kind]] !== undefined);
  if (only !== undefined) {
    requireCapability(client, CAPABILITY[only], LISTINGS[only].title.toLowerCase());
    kinds.splice(0, kinds.length, only);
  }
  const result: Record<string, unknown[]> = {};
  const sections: string[] = [];
  for (const kind of kinds) {
    const { key, title, list, format } = LISTINGS[kind];
    const items = await list(client, { signal });
    result[key] = items;
    sections.push(
      `${colours.bold(`${title} (${items.length})`)}\n${format(items as never, colours, layout)}`,
    );
  }
  if (oneShot.isJson) oneShot.printJson(result);
  // One kind asked for: just its lines, for `| grep` and `| head`; several: headed sections.
  else if (only !== undefined) oneShot.print(sections[0]!.replace(/^.*\n/, ''));
  else
    oneShot.print(
      sections.length === 0 ? 'The server declares no tools, resources or prompts.\n' : sections.join('\n'),
    );
  return ExitCode.ok;
}
