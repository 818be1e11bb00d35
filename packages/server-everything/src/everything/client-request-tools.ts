// The everything server's tools that ask the client for something while they run: sampling,
// elicitation (plain, SEP-1034 defaults, SEP-1330 enums) and roots.

import type { ElicitRequestFormParams, ElicitResult } from 'mcpwire';
import type { RequestContext, Server } from 'mcpwire/server';

const NO_ARGUMENTS = { type: 'object', properties: {} } as const;

/** Registers the tools that send sampling, elicitation and roots requests to the client. */
export function registerClientRequestTools(server: Server): void {
  registerSamplingTools(server);
  registerElicitationTools(server);
  registerSchemaElicitationTools(server);
  server.tool(
    {
      name: 'test_list_roots',
      description: 'Lists the client’s roots (roots/list) and returns them as text and structured content.',
      inputSchema: NO_ARGUMENTS,
    },
    async (_args, ctx) => {
      const { roots } = await ctx.listRoots();
      const lines = roots.map((root) => `${root.uri}${root.name === undefined ? '' : ` (${root.name})`}`);
      return {
        content: [
          {
            type: 'text',
            text: roots.length === 0 ? 'The client has no roots.' : `Client roots:\n${lines.join('\n')}`,
          },
        ],
        structuredContent: { roots },
      };
    },
  );
}

async function sampleText(ctx: RequestContext, prompt: string): Promise<string> {
  const result = await ctx.sample({
    messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
    maxTokens: 100,
  });
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  const text = blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('');
  return text === '' ? 'No response' : text;
}

function registerSamplingTools(server: Server): void {
  server.tool(
    {
      name: 'test_sampling',
      description: 'Tests server-initiated sampling (LLM completion request)',
      inputSchema: {
        type: 'object',
        properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
        required: ['prompt'],
      },
    },
    async (args, ctx) => `LLM response: ${await sampleText(ctx, String(args.prompt))}`,
  );
  server.tool(
    {
      name: 'test_missing_capability',
      description: 'Needs the client’s sampling capability: fails when the client did not declare it.',
      inputSchema: NO_ARGUMENTS,
    },
    async (_args, ctx) => `LLM response: ${await sampleText(ctx, 'Reply with one word.')}`,
  );
}

function describeElicitation(result: ElicitResult): string {
  return `action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
}

/** Form fields with a default for every primitive type (conformance `elicitation-sep1034-defaults`). */
const DEFAULTS_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: {
      type: 'string',
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
  required: [],
};

/** All five enum shapes (conformance `elicitation-sep1330-enums`). */
const ENUMS_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    untitledSingle: {
      type: 'string',
      description: 'Select one option',
      enum: ['option1', 'option2', 'option3'],
    },
    titledSingle: {
      type: 'string',
      description: 'Select one option with titles',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      description: 'Select one option (handshake)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Select multiple options',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Select multiple options with titles',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
  required: [],
};

function registerElicitationTools(server: Server): void {
  server.tool(
    {
      name: 'test_elicitation',
      description: 'Tests server-initiated elicitation (user input request)',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'The message to show the user' } },
        required: ['message'],
      },
    },
    async (args, ctx) => {
      const result = await ctx.elicit({
        mode: 'form',
        message: String(args.message),
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: 'User’s response' },
            email: { type: 'string', description: 'User’s email address' },
          },
          required: ['username', 'email'],
        },
      });
      return `User response: ${describeElicitation(result)}`;
    },
  );
  server.tool(
    {
      name: 'test_streaming_elicitation',
      description: 'Asks the user for a confirmation while the call is in flight, then reports the answer.',
      inputSchema: NO_ARGUMENTS,
    },
    async (_args, ctx) => {
      const result = await ctx.elicit({
        mode: 'form',
        message: 'Proceed with the operation?',
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', description: 'Whether to proceed' } },
          required: ['confirm'],
        },
      });
      return `Received: ${describeElicitation(result)}`;
    },
  );
}

/** The elicitation fixtures whose requested schemas the conformance suite inspects field by field. */
function registerSchemaElicitationTools(server: Server): void {
  server.tool(
    {
      name: 'test_elicitation_sep1034_defaults',
      description: 'Tests elicitation with default values per SEP-1034',
      inputSchema: NO_ARGUMENTS,
    },
    async (_args, ctx) => {
      const result = await ctx.elicit({
        mode: 'form',
        message: 'Please review and update the form fields with defaults',
        requestedSchema: DEFAULTS_SCHEMA,
      });
      return `Elicitation completed: ${describeElicitation(result)}`;
    },
  );
  server.tool(
    {
      name: 'test_elicitation_sep1330_enums',
      description: 'Tests elicitation with enum schema improvements per SEP-1330',
      inputSchema: NO_ARGUMENTS,
    },
    async (_args, ctx) => {
      // Multi-select fields exist from 2025-11-25 on; older revisions get the single-select ones.
      const isOld = ctx.era === 'handshake' && ctx.protocolVersion < '2025-11-25';
      const { untitledMulti: _u, titledMulti: _t, ...singleSelect } = ENUMS_SCHEMA.properties;
      const requestedSchema = isOld ? { ...ENUMS_SCHEMA, properties: singleSelect } : ENUMS_SCHEMA;
      const result = await ctx.elicit({
        mode: 'form',
        message: 'Please select options from the enum fields',
        requestedSchema,
      });
      return `Elicitation completed: ${describeElicitation(result)}`;
    },
  );
}
