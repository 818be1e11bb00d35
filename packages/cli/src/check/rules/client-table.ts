// What each model API and host refuses of a server's tool definitions, as data: one row per client,
// each limit with the evidence for it. docs/check.md renders the same table; `--clients` picks rows.

/** One limit and where it is documented or observed. */
export interface Limit<T> {
  value: T;
  source: string;
}

/** What one client refuses. An absent field: no known limit of that kind. */
export interface ClientProfile {
  /** The `--clients` name. */
  id: string;
  /** How findings name it. */
  title: string;
  /** Tool names it accepts, and the rule in words. */
  toolName?: Limit<{ pattern: RegExp; words: string }>;
  /** The most tools one request may carry. */
  maxTools?: Limit<number>;
  /** The longest tool description, in characters. */
  maxDescription?: Limit<number>;
  /** Refuses anyOf/oneOf/allOf at the top level of an input schema. */
  refusesTopLevelCombinator?: Limit<true>;
  /** Refuses $ref and $defs/definitions. */
  refusesRef?: Limit<true>;
  /** Refuses patternProperties. */
  refusesPatternProperties?: Limit<true>;
  /** The string/number formats it accepts; any other "format" is refused. */
  formats?: Limit<readonly string[]>;
  /** Every subschema must say its "type". */
  requiresType?: Limit<true>;
}

const GEMINI_SCHEMA =
  'Gemini API reference, Schema (generativelanguage v1beta): "a select subset of an OpenAPI 3.0 schema object"; type "Required"; format for NUMBER float/double, INTEGER int32/int64, STRING enum/date-time';

/** Every client `check` knows, in the order findings list them. */
export const CLIENTS: readonly ClientProfile[] = [
  {
    id: 'openai',
    title: 'OpenAI',
    toolName: {
      value: { pattern: /^[a-zA-Z0-9_-]{1,64}$/, words: '1 to 64 of a-z A-Z 0-9 _ -' },
      source:
        'OpenAI API reference, function.name: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64"',
    },
    maxTools: {
      value: 128,
      source:
        'API error "Invalid \'tools\': array too long. Expected an array with maximum length 128" (zed-industries/zed#32946, musistudio/claude-code-router#686)',
    },
    maxDescription: {
      value: 1024,
      source:
        'API error "Invalid \'tools[N].function.description\': string too long. Expected a string with maximum length 1024" (getsentry/sentry-mcp#106, OpenHands/OpenHands#4838)',
    },
  },
  {
    id: 'anthropic',
    title: 'Anthropic',
    toolName: {
      value: { pattern: /^[a-zA-Z0-9_-]{1,128}$/, words: '1 to 128 of a-z A-Z 0-9 _ -' },
      source:
        'Messages API error "tools.N.custom.name: String should match pattern \'^[a-zA-Z0-9_-]{1,128}$\'" (microsoft/wassette#56)',
    },
    refusesTopLevelCombinator: {
      value: true,
      source:
        'Messages API error "input_schema does not support oneOf, allOf, or anyOf at the top level" (anthropics/claude-code#5319, mobile-next/mobile-mcp#344)',
    },
  },
  {
    id: 'claude-desktop',
    title: 'Claude Desktop',
    toolName: {
      value: { pattern: /^[a-zA-Z0-9_-]{1,64}$/, words: '1 to 64 of a-z A-Z 0-9 _ -' },
      source:
        "Claude Desktop validates tool names against '^[a-zA-Z0-9_-]{1,64}$' (malloydata/publisher#543)",
    },
    refusesTopLevelCombinator: {
      value: true,
      source: 'the Anthropic Messages API behind it (marianfoo/mcp-sap-docs#51: Claude Desktop connector)',
    },
  },
  {
    id: 'gemini',
    title: 'Gemini',
    toolName: {
      value: {
        pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
        words: 'a letter or "_" first, then a-z A-Z 0-9 _ . : -, at most 64',
      },
      source:
        'API error "Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64" (MadAppGang/claudish#65)',
    },
    refusesRef: {
      value: true,
      source:
        'FunctionDeclaration.parameters is the OpenAPI subset (epam/ai-dial-adapter-vertexai#288, vercel/ai#14369); parametersJsonSchema accepts $ref (NousResearch/hermes-agent#98928)',
    },
    refusesPatternProperties: { value: true, source: GEMINI_SCHEMA },
    formats: { value: ['float', 'double', 'int32', 'int64', 'enum', 'date-time'], source: GEMINI_SCHEMA },
    requiresType: { value: true, source: GEMINI_SCHEMA },
  },
  {
    id: 'vscode',
    title: 'VS Code (GitHub Copilot)',
    maxTools: {
      value: 128,
      source:
        '"You may not include more than 128 tools in your request." (microsoft/vscode-copilot-release#13065)',
    },
  },
];

/** The client with `id`, or undefined. */
export function lookupClient(id: string): ClientProfile | undefined {
  return CLIENTS.find((client) => client.id === id);
}
