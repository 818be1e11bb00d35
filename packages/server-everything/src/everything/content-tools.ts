// The everything server's tools that answer at once: echo, each content type, tool errors, structured
// output, and tools whose definitions show off a feature (annotations, icons, _meta, JSON Schema 2020-12).

import type { ContentBlock } from 'mcpwire';
import type { Server } from 'mcpwire/server';
import { ICON_DATA_URI, PNG_BASE64, WAV_BASE64 } from './media.ts';

const NO_ARGUMENTS = { type: 'object', properties: {} } as const;

/**
 * The SEP-1613 / SEP-2106 fixture of the conformance scenario `json-schema-2020-12`, verbatim: every
 * keyword here must survive `tools/list` unchanged.
 */
export const JSON_SCHEMA_2020_12_FIXTURE = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} as const;

/**
 * Registers the immediate tools. `echo` comes first: the conformance suite calls the first listed tool
 * with `{}` and the benchmarks call `echo`, so it must stay first and accept no arguments.
 */
export function registerContentTools(server: Server): void {
  registerEcho(server);
  registerContentFixtures(server);
  registerStructuredTools(server);
  registerWeatherTool(server);
  registerSchemaTools(server);
}

function registerEcho(server: Server): void {
  server.tool(
    {
      name: 'echo',
      title: 'Echo',
      description: 'Returns the given message as text (an empty message when none is given).',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'The text to send back' } },
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) => ({ content: [{ type: 'text', text: typeof args.message === 'string' ? args.message : '' }] }),
  );
}

/**
 * The content fixtures of the conformance scenarios `tools-call-*`: each returns fixed content, with the
 * exact texts, URIs and MIME types the scenarios check.
 */
const CONTENT_FIXTURES: ReadonlyArray<{ name: string; description: string; content: ContentBlock[] }> = [
  {
    name: 'test_simple_text',
    description: 'Tests simple text content response',
    content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
  },
  {
    name: 'test_image_content',
    description: 'Tests image content response',
    content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }],
  },
  {
    name: 'test_audio_content',
    description: 'Tests audio content response',
    content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }],
  },
  {
    name: 'test_embedded_resource',
    description: 'Tests embedded resource content response',
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  },
  {
    name: 'test_multiple_content_types',
    description: 'Tests response with multiple content types (text, image, resource)',
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ],
  },
  {
    name: 'test_resource_links',
    description: 'Returns resource_link blocks pointing at this server’s resources',
    content: [
      { type: 'text', text: 'Two resources you can read:' },
      { type: 'resource_link', uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain' },
      { type: 'resource_link', uri: 'test://static-binary', name: 'static-binary', mimeType: 'image/png' },
    ],
  },
];

function registerContentFixtures(server: Server): void {
  for (const { name, description, content } of CONTENT_FIXTURES) {
    server.tool({ name, description, inputSchema: NO_ARGUMENTS }, () => ({ content }));
  }
  server.tool(
    { name: 'test_error_handling', description: 'Tests error response handling', inputSchema: NO_ARGUMENTS },
    () => {
      // A plain Error becomes a result with isError: true (a tool failure), not a JSON-RPC error.
      throw new Error('This tool intentionally returns an error for testing');
    },
  );
}

const WEATHER_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    temperatureCelsius: { type: 'number' },
    conditions: { type: 'string', enum: ['sunny', 'cloudy', 'rainy', 'snowy'] },
    humidityPercent: { type: 'integer', minimum: 0, maximum: 100 },
  },
  required: ['city', 'temperatureCelsius', 'conditions', 'humidityPercent'],
  additionalProperties: false,
} as const;

function registerStructuredTools(server: Server): void {
  server.tool(
    {
      name: 'add_numbers',
      description: 'Adds two numbers and returns the sum as text and as structured content.',
      inputSchema: {
        type: 'object',
        properties: {
          a: { type: 'number', description: 'First addend' },
          b: { type: 'number', description: 'Second addend' },
        },
        required: ['a', 'b'],
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    },
    (args) => {
      const sum = Number(args.a) + Number(args.b);
      return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
    },
  );
  server.tool(
    {
      name: 'delete_note',
      title: 'Delete note (dry run)',
      description: 'Pretends to delete a note; its annotations mark it destructive and idempotent.',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) => `Note ${String(args.id)} would be deleted (dry run: nothing was changed).`,
  );
}

/** A tool with every optional definition field: title, outputSchema, annotations, icons and _meta. */
function registerWeatherTool(server: Server): void {
  server.tool(
    {
      name: 'get_weather',
      title: 'Weather (simulated)',
      description:
        'Returns made-up current weather for a city as structured content matching the outputSchema.',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string', description: 'City name' } },
        required: ['city'],
      },
      outputSchema: WEATHER_OUTPUT_SCHEMA,
      annotations: { title: 'Weather (simulated)', readOnlyHint: true, openWorldHint: false },
      icons: [{ src: ICON_DATA_URI, mimeType: 'image/svg+xml', sizes: ['any'] }],
      _meta: { 'dev.mcpwire/category': 'structured-output' },
    },
    (args) => {
      const city = String(args.city);
      // Deterministic per city, so tests and transcripts are stable.
      const seed = [...city].reduce((total, char) => total + char.charCodeAt(0), 0);
      const conditions = (['sunny', 'cloudy', 'rainy', 'snowy'] as const)[seed % 4] ?? 'sunny';
      return {
        structuredContent: {
          city,
          temperatureCelsius: (seed % 35) - 5,
          conditions,
          humidityPercent: seed % 101,
        },
      };
    },
  );
}

function registerSchemaTools(server: Server): void {
  server.tool(
    {
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: JSON_SCHEMA_2020_12_FIXTURE,
    },
    (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
  );
  server.tool(
    {
      name: 'test_custom_header',
      description:
        'Has a parameter mirrored into an HTTP header (x-mcp-header, SEP-2243); returns the region it received.',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', description: 'Region to route to', 'x-mcp-header': 'Region' },
          query: { type: 'string', description: 'Free text, not mirrored' },
        },
        required: ['region'],
      },
    },
    (args) => `Region: ${String(args.region)}`,
  );
}
