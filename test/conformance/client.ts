// The client under test for the official conformance suite: one program for every client scenario,
// started as `<command> <serverUrl>` with MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION
// and (for some) MCP_CONFORMANCE_CONTEXT. Each scenario does what the suite's mock server expects.
// Scenario names appear here only: the SDK itself never knows it is being tested.

import { Client, type ClientHandlers } from 'mcpwire/client';
import type { Tool } from 'mcpwire';
import { StreamableHttpClientTransport } from 'mcpwire/http';

/** One scenario: the handlers the client is built with, and what it does once connected. */
interface Scenario {
  handlers?: ClientHandlers;
  run(client: Client): Promise<void>;
}

/** `MCP_CONFORMANCE_CONTEXT.toolCalls` of http-custom-headers: the calls to make, verbatim. */
interface ToolCallContext {
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}

/** Handlers every scenario gets, so that every capability the suite may inspect is declared. */
const BASE_HANDLERS: ClientHandlers = {
  // Accepting with no content: the client fills in the schema's defaults (SEP-1034).
  elicitation: () => ({ action: 'accept', content: {} }),
  sampling: () => ({
    role: 'assistant',
    content: { type: 'text', text: 'conformance fixture answer' },
    model: 'conformance-fixture',
  }),
  roots: () => [{ uri: 'file:///tmp/mcpwire-conformance', name: 'conformance' }],
};

const SCENARIOS: Record<string, (context: ToolCallContext) => Scenario> = {
  // Connecting (initialize or server/discover) is the scenario; then list tools if there are any.
  initialize: () => ({ run: listToolsIfOffered }),
  // The first request (server/discover) is rejected with -32022; the client retries it at a supported version.
  'request-metadata': () => ({ run: listToolsIfOffered }),
  'json-schema-ref-no-deref': () => ({ run: async (client) => void (await client.listTools()) }),
  tools_call: () => ({
    run: async (client) => {
      await client.listTools();
      await client.callTool({ name: 'add_numbers', arguments: { a: 5, b: 3 } });
    },
  }),
  'elicitation-sep1034-client-defaults': () => ({
    run: async (client) => {
      await client.listTools();
      await client.callTool({ name: 'test_client_elicitation_defaults', arguments: {} });
    },
  }),
  // The server closes the call's SSE stream; the client must resume with GET after `retry` ms.
  'sse-retry': () => ({
    run: async (client) => {
      await client.listTools();
      await client.callTool({ name: 'test_reconnection', arguments: {} });
    },
  }),
  'sep-2322-client-request-state': () => requestStateScenario(),
  'http-standard-headers': () => ({
    run: async (client) => {
      for (const tool of await client.listAllTools())
        await client.callTool({ name: tool.name, arguments: {} });
      for (const resource of await client.listAllResources())
        await client.readResource({ uri: resource.uri });
      for (const prompt of await client.listAllPrompts()) await client.getPrompt({ name: prompt.name });
    },
  }),
  'http-custom-headers': (context) => ({
    run: async (client) => {
      await client.listTools();
      for (const call of context.toolCalls ?? []) {
        await client.callTool({ name: call.name, arguments: call.arguments });
      }
    },
  }),
  // Tools with invalid x-mcp-header annotations must already be gone from the list (S26-HDR-3).
  'http-invalid-tool-headers': () => ({
    run: async (client) => {
      for (const tool of await client.listAllTools()) {
        await client.callTool({ name: tool.name, arguments: argumentsFor(tool) });
      }
    },
  }),
  'json-schema-2020-12-preservation': () => ({
    run: async (client) => {
      const tools = await client.listAllTools();
      const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
      if (!focal) throw new Error('tools/list did not include json_schema_2020_12_tool');
      await client.callTool({ name: 'json_schema_echo', arguments: { schema: focal.inputSchema } });
    },
  }),
};

/**
 * SEP-2322: echo_state answers input_required with a requestState; while its input is being
 * answered (between the rounds) an unrelated tool is called, which must carry neither the state
 * nor the responses. no_state has no requestState to echo; no_result_type is complete as it is.
 */
function requestStateScenario(): Scenario {
  let client: Client | undefined;
  let isFirstInput = true;
  return {
    handlers: {
      ...BASE_HANDLERS,
      elicitation: async () => {
        if (isFirstInput && client) {
          isFirstInput = false;
          await client.callTool({ name: 'test_mrtr_unrelated', arguments: {} });
        }
        return { action: 'accept', content: { confirmed: true } };
      },
    },
    run: async (connected) => {
      client = connected;
      await connected.listTools();
      await connected.callTool({ name: 'test_mrtr_echo_state', arguments: {} });
      await connected.callTool({ name: 'test_mrtr_no_state', arguments: {} });
      await connected.callTool({ name: 'test_mrtr_no_result_type', arguments: {} });
    },
  };
}

/** What any client does after connecting: list the tools, if the server declared the capability. */
async function listToolsIfOffered(client: Client): Promise<void> {
  if (client.serverCapabilities?.tools) await client.listTools();
}

/** Arguments for a tool's required parameters, one plain value of each declared type. */
function argumentsFor(tool: Tool): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: string[] };
  const sample: Record<string, unknown> = {
    string: 'value',
    integer: 1,
    number: 1,
    boolean: true,
    object: {},
    array: [],
  };
  const args: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const type = schema.properties?.[name]?.type;
    args[name] = typeof type === 'string' && type in sample ? sample[type] : 'value';
  }
  return args;
}

async function main(): Promise<void> {
  const serverUrl = process.argv[2];
  const name = process.env.MCP_CONFORMANCE_SCENARIO;
  if (!serverUrl || !name) throw new Error('usage: MCP_CONFORMANCE_SCENARIO=<name> client.ts <serverUrl>');
  const create = SCENARIOS[name];
  // The skills extension (SEP-2640 scenarios) has no client API in mcpwire yet.
  if (!create) throw new Error(`scenario "${name}": mcpwire's Client has no API for it, nothing to run`);
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as ToolCallContext;
  const scenario = create(context);
  const protocolVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
  const client = new Client(
    { name: 'mcpwire-conformance-client', version: '0.1.0' },
    {
      handlers: scenario.handlers ?? BASE_HANDLERS,
      eraCache: false,
      ...(protocolVersion ? { protocolVersion } : {}),
    },
  );
  const transport = new StreamableHttpClientTransport(serverUrl, {
    onError: (error) => process.stderr.write(`[mcpwire fixture] transport: ${error.message}\n`),
  });
  await client.connect(transport);
  try {
    await scenario.run(client);
  } finally {
    await client.close();
  }
  process.stderr.write(`[mcpwire fixture] ${name}: done\n`);
}

try {
  await main();
} catch (error) {
  process.stderr.write(
    `[mcpwire fixture] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
}
