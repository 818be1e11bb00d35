// The demo's host (a stand-in for Cursor or Claude Desktop): a Client that declares sampling, roots
// and elicitation, and answers them as a host with a user at the keyboard would, narrating each one.

import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Root,
} from 'mcpwire';
import { Client, type ClientRequestContext } from 'mcpwire/client';
import type { DemoPrinter } from '../../terminal/demo-printer.ts';
import { PACKAGE_VERSION } from '../../package-info.ts';

/** The host's model, canned so runs are reproducible. */
export const CANNED_MODEL = 'demo-canned-model';

/** A sampling handler the current step puts in place of the canned answer. */
export type SamplingOverride = (
  params: CreateMessageRequestParams,
  ctx: ClientRequestContext,
) => Promise<CreateMessageResult>;

/** The host: its Client and what its user will do next. */
export interface DemoHost {
  readonly client: Client;
  /** The folders the user opened, served to roots/list. */
  roots: Root[];
  /** When set, answers sampling requests instead of the canned answer (the cancellation step). */
  onSampling: SamplingOverride | undefined;
}

/** How long the host waits for the server's first answer (its start and seeding included). */
const CONNECT_TIMEOUT_MS = 30_000;

/** Makes the host's Client for `era` (not yet connected). */
export function createDemoHost(era: 'handshake' | 'stateless', printer: DemoPrinter): DemoHost {
  // The handlers read `host` when the server asks, by which time it exists.
  const client = new Client(
    { name: 'mcpwire-demo-host', title: 'mcpwire demo host', version: PACKAGE_VERSION },
    {
      era,
      eraCache: false,
      // The server is this CLI's own entry spawned again (from source under tsx in the repository),
      // seeding its database before it answers: on a loaded machine that can take several seconds.
      initializeTimeoutMs: CONNECT_TIMEOUT_MS,
      elicitationModes: ['form'],
      handlers: {
        sampling: (params, ctx) => (host.onSampling ?? cannedSampling(printer))(params, ctx),
        elicitation: (params) => acceptElicitation(params, printer),
        roots: () => {
          printer.note(`the host answers roots/list with the folders the user opened`);
          return host.roots;
        },
      },
      onError: (error) => process.stderr.write(`mcpwire demo: host: ${error.message}\n`),
    },
  );
  const host: DemoHost = {
    client,
    roots: [{ uri: 'file:///home/demo/acme/webapp', name: 'webapp' }],
    onSampling: undefined,
  };
  return host;
}

function cannedSampling(printer: DemoPrinter): SamplingOverride {
  return (params) => {
    const last = params.messages.at(-1)?.content;
    const asked = last && !Array.isArray(last) && last.type === 'text' ? last.text : '(no text)';
    printer.note(`the host shows the user the server's sampling request ("${asked}"); the user approves`);
    printer.note(`the host's model answers (a canned answer, so every run is the same)`);
    return Promise.resolve({
      role: 'assistant',
      content: {
        type: 'text',
        text: 'Logging in on Safari returns HTTP 500 right after a password reset. Nothing has been tried yet; the issue is open and unassigned.',
      },
      model: CANNED_MODEL,
      stopReason: 'endTurn',
    });
  };
}

function acceptElicitation(params: ElicitRequestParams, printer: DemoPrinter): ElicitResult {
  printer.note(`the host shows the user a form: "${params.message}"; the user ticks Confirm and accepts`);
  return { action: 'accept', content: { confirm: true } };
}
