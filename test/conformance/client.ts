// The client under test for the official conformance suite: one program for every client scenario,
// started as `<command> <serverUrl>` with MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION
// and (for some) MCP_CONFORMANCE_CONTEXT. Each scenario does what the suite's mock server expects.
// Scenario names appear here only: the SDK itself never knows it is being tested.

import { Client, type ClientHandlers } from 'mcpwire/client';
import type { Tool } from 'mcpwire';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { skills, SkillsClient, SkillVerificationError } from 'mcpwire/extensions/skills';
import { createOAuthAuthorization, type AuthorizationRequest, type OAuthClientOptions } from 'mcpwire/auth';

/** One scenario: the handlers the client is built with, and what it does once connected. */
interface Scenario {
  handlers?: ClientHandlers;
  run(client: Client): Promise<void>;
}

/**
 * `MCP_CONFORMANCE_CONTEXT`: `toolCalls` of http-custom-headers (the calls to make, verbatim); the
 * pre-registered credentials of auth/pre-registration and the client credentials scenarios; the
 * signing key of client-credentials-jwt; the workload assertion of wif-jwt-bearer; the IdP of
 * enterprise-managed-authorization.
 */
interface ToolCallContext {
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  client_id?: string;
  client_secret?: string;
  issuer?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  valid_jwt?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_issuer?: string;
  idp_token_endpoint?: string;
}

/** What a context field names, or an error saying the scenario's context lacks it. */
function required(context: ToolCallContext, field: keyof ToolCallContext): string {
  const value = context[field];
  if (typeof value !== 'string') throw new Error(`MCP_CONFORMANCE_CONTEXT has no ${field}`);
  return value;
}

/**
 * auth/* scenarios of a client without a user: the grant, the client's credentials and how it
 * authenticates, as a machine client's configuration would give them. The rest run the browser grant.
 */
const AUTH_OPTIONS: Record<string, (context: ToolCallContext) => Partial<OAuthClientOptions>> = {
  'auth/client-credentials-basic': (context) => ({
    grant: { type: 'client_credentials' },
    client: { client_id: required(context, 'client_id'), client_secret: required(context, 'client_secret') },
  }),
  'auth/client-credentials-jwt': (context) => ({
    grant: { type: 'client_credentials' },
    client: { client_id: required(context, 'client_id') },
    tokenEndpointAuth: {
      method: 'private_key_jwt',
      key: required(context, 'private_key_pem'),
      alg: required(context, 'signing_algorithm'),
    },
  }),
  'auth/wif-jwt-bearer': (context) => {
    const assertion = required(context, 'valid_jwt');
    return {
      grant: { type: 'jwt_bearer', assertion: () => assertion },
      client: { client_id: required(context, 'client_id') },
    };
  },
  'auth/enterprise-managed-authorization': (context) => {
    const idToken = required(context, 'idp_id_token');
    return {
      grant: {
        type: 'identity_assertion',
        subjectToken: () => idToken,
        idp: {
          tokenEndpoint: required(context, 'idp_token_endpoint'),
          clientId: required(context, 'idp_client_id'),
          issuer: required(context, 'idp_issuer'),
        },
      },
      client: {
        client_id: required(context, 'client_id'),
        client_secret: required(context, 'client_secret'),
      },
    };
  },
  // Not machine grants: the browser grant with DPoP-bound tokens.
  'auth/dpop': () => ({ dpop: {} }),
  'auth/dpop-nonce': () => ({ dpop: {} }),
};

/**
 * auth/* scenarios whose server is hostile or never satisfied: the client must stop (before the
 * authorization request, or before the token request, or after a few step-ups). For them the fixture
 * succeeds only if the run ended in such a refusal, and fails if the client went through.
 */
const EXPECTS_REFUSAL = new Set([
  'auth/scope-retry-limit',
  'auth/resource-mismatch',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
]);

/** The OAuthError, or the transport's HttpError for a final 401/403, in `error`'s cause chain. */
function authRefusalIn(error: unknown): Error | undefined {
  for (let at: unknown = error; at instanceof Error; at = at.cause) {
    if (at.name === 'OAuthError') return at;
    const status = (at as { status?: unknown }).status;
    if (at.name === 'HttpError' && (status === 401 || status === 403)) return at;
  }
  return undefined;
}

/** The Client ID Metadata Document URL the suite's auth/basic-cimd expects as client_id. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Never listened on: the suite's authorization servers approve at once and redirect here with the code. */
const REDIRECT_URI = 'http://127.0.0.1:3000/callback';

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
  // SEP-2640: list the skills and load none (no prefetch).
  'sep-2640-client-no-prefetch': () => ({
    run: async (client) => void (await new SkillsClient(client).list()),
  }),
  // SEP-2640: load pdf-processing as a host would; the tampered SKILL.md must stop it before FORMS.md.
  'sep-2640-client-verify-digest': () => ({ run: loadSkillScenario }),
  'sep-2640-client-verify-size': () => ({ run: loadSkillScenario }),
  'sep-2640-client-verify-frontmatter': () => ({ run: loadSkillScenario }),
};

/** Loads the pdf-processing skill: its SKILL.md, then its other files, each verified before use. */
async function loadSkillScenario(client: Client): Promise<void> {
  const host = new SkillsClient(client);
  const skill = (await host.list()).find((entry) => entry.frontmatter.name === 'pdf-processing');
  if (!skill) throw new Error('skills/list did not include pdf-processing');
  try {
    await host.read(skill);
    for (const file of skill.resources === 'dynamic' ? [] : skill.resources)
      if (file.uri !== skill.uri) await host.read(skill, file.uri);
  } catch (error) {
    if (!(error instanceof SkillVerificationError)) throw error;
    process.stderr.write(`[mcpwire fixture] skill refused (${error.reason}): ${error.message}\n`);
  }
}

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

/**
 * Every auth/* scenario: list the tools and call the first, two authorized requests (the
 * authorization-server migration needs the second to meet the new authorization server).
 */
const authScenario: Scenario = {
  run: async (client) => {
    const tools = await client.listTools();
    const first = tools.tools[0];
    if (first) await client.callTool({ name: first.name, arguments: {} });
  },
};

/**
 * The authorize step of an auto-approving authorization server: follow the authorization URL without
 * a browser and return where it redirects (the redirect URI with code, state and iss).
 */
async function followAuthorization(request: AuthorizationRequest): Promise<URL> {
  const response = await fetch(request.url, { redirect: 'manual' });
  const location = response.headers.get('location');
  await response.body?.cancel();
  if (location === null)
    throw new Error(`GET ${request.url.href} answered ${response.status} without a redirect`);
  return new URL(location, request.url);
}

/**
 * The transport's authorization: an OAuth client for auth/* scenarios (loopback allowed), beneath the
 * transport's own requester (Node's pool); none for the others.
 */
function authorizationFor(name: string, serverUrl: string, context: ToolCallContext) {
  if (!name.startsWith('auth/')) return undefined;
  const preRegistered =
    context.client_id !== undefined && context.issuer !== undefined
      ? [
          {
            issuer: context.issuer,
            client_id: context.client_id,
            ...(context.client_secret === undefined ? {} : { client_secret: context.client_secret }),
          },
        ]
      : [];
  return createOAuthAuthorization(serverUrl, {
    authorize: followAuthorization,
    redirectUri: REDIRECT_URI,
    clientMetadata: { client_name: 'mcpwire-conformance-client' },
    clientMetadataUrl: CLIENT_METADATA_URL,
    preRegistered,
    allowPrivateNetwork: true,
    ...AUTH_OPTIONS[name]?.(context),
  });
}

async function main(): Promise<void> {
  const serverUrl = process.argv[2];
  const name = process.env.MCP_CONFORMANCE_SCENARIO;
  if (!serverUrl || !name) throw new Error('usage: MCP_CONFORMANCE_SCENARIO=<name> client.ts <serverUrl>');
  const create = name.startsWith('auth/') ? () => authScenario : SCENARIOS[name];
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
      ...(name.startsWith('sep-2640-') ? { extensions: [skills()] } : {}),
    },
  );
  const authorization = authorizationFor(name, serverUrl, context);
  const transport = new StreamableHttpClientTransport(serverUrl, {
    ...(authorization === undefined ? {} : { authorization }),
    onError: (error) => process.stderr.write(`[mcpwire fixture] transport: ${error.message}\n`),
  });
  try {
    await client.connect(transport);
    try {
      await scenario.run(client);
    } finally {
      await client.close();
    }
  } catch (error) {
    const refusal = EXPECTS_REFUSAL.has(name) ? authRefusalIn(error) : undefined;
    if (refusal === undefined) throw error;
    process.stderr.write(`[mcpwire fixture] ${name}: refused as the scenario requires: ${refusal.message}\n`);
    return;
  }
  if (EXPECTS_REFUSAL.has(name))
    throw new Error(`scenario "${name}": the client went through, expected it to refuse`);
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
