// The lint rules: each one's stable id, default severity, what it finds and the checklist
// requirement it cites, per era (the requirement ids of the 2025-11-25 and 2026-07-28 checklists).
// Light on purpose: `mcpwire lint --help` lists these without loading the engine.

/** How bad a finding is: an error breaks a MUST of the spec, a warning a SHOULD (or a likely race). */
export type Severity = 'error' | 'warning';

/** One rule of the catalogue. */
export interface Rule {
  readonly id: string;
  readonly severity: Severity;
  /** What the rule finds, one line for `--help`. */
  readonly summary: string;
  /** The requirement it cites in the handshake era (2025-11-25 and earlier) and in 2026-07-28. */
  readonly requirements: { readonly handshake?: string; readonly stateless?: string };
}

/** Every rule, in the order `--help` lists them. Ids are stable: scripts pass them to --rule/--ignore. */
export const RULES = [
  {
    id: 'stdout-not-json',
    severity: 'error',
    summary: "a blank, non-JSON or non-object line on the server's stdout",
    requirements: { handshake: 'STDIO-3', stateless: 'S26-STDIO-1' },
  },
  {
    id: 'stdin-not-json',
    severity: 'error',
    summary: "a blank, non-JSON or non-object line the client wrote to the server's stdin",
    requirements: { handshake: 'STDIO-4', stateless: 'S26-STDIO-1' },
  },
  {
    id: 'invalid-message',
    severity: 'error',
    summary: 'JSON that is no JSON-RPC 2.0 message (jsonrpc, id, method, result or error malformed)',
    requirements: { handshake: 'BASE-2', stateless: 'S26-BASE-2' },
  },
  {
    id: 'batch-not-allowed',
    severity: 'error',
    summary: 'a JSON-RPC batch (an array) in a revision other than 2025-03-26',
    requirements: { handshake: 'BASE-8', stateless: 'S26-BASE-2' },
  },
  {
    id: 'result-and-error',
    severity: 'error',
    summary: 'a response carrying both "result" and "error"',
    requirements: { handshake: 'BASE-2', stateless: 'S26-BASE-2' },
  },
  {
    id: 'response-unknown-id',
    severity: 'error',
    summary: 'a response whose id matches no request the other side sent',
    requirements: { handshake: 'BASE-5', stateless: 'S26-BASE-2' },
  },
  {
    id: 'response-duplicate',
    severity: 'error',
    summary: 'a second response to a request that was already answered',
    requirements: { handshake: 'BASE-5', stateless: 'S26-BASE-2' },
  },
  {
    id: 'request-id-reused',
    severity: 'error',
    summary:
      'a request id the same side used before: at all in the handshake era, while pending (or for an input_required retry) in 2026-07-28',
    requirements: { handshake: 'BASE-4', stateless: 'S26-BASE-2' },
  },
  {
    id: 'notification-with-id',
    severity: 'error',
    summary: 'a notification method (notifications/...) sent with an id',
    requirements: { handshake: 'BASE-7', stateless: 'S26-BASE-2' },
  },
  {
    id: 'capability-not-declared',
    severity: 'error',
    summary:
      "a method or notification the peer's capabilities did not declare (tools, resources, subscribe, prompts, completions, logging, sampling, elicitation, roots, tasks)",
    requirements: { handshake: 'LIFE-11', stateless: 'S26-MRTR-3' },
  },
  {
    id: 'before-handshake',
    severity: 'error',
    summary:
      'handshake era: a message before initialize, a client request before its result, a server request before notifications/initialized',
    requirements: { handshake: 'LIFE-1' },
  },
  {
    id: 'protocol-version-header',
    severity: 'error',
    summary:
      'an HTTP request after negotiation without MCP-Protocol-Version, or with one other than the negotiated revision (the _meta one in 2026-07-28)',
    requirements: { handshake: 'HTTP-33', stateless: 'S26-HTTP-11' },
  },
  {
    id: 'method-header',
    severity: 'error',
    summary: "2026-07-28 over HTTP: Mcp-Method or Mcp-Name missing or not the body's",
    requirements: { stateless: 'S26-HTTP-12' },
  },
  {
    id: 'result-type-missing',
    severity: 'error',
    summary: '2026-07-28: a result without "resultType"',
    requirements: { stateless: 'S26-BASE-3' },
  },
  {
    id: 'envelope-key-missing',
    severity: 'error',
    summary:
      '2026-07-28: a request without params._meta protocolVersion or clientCapabilities (a warning without clientInfo)',
    requirements: { stateless: 'S26-META-2' },
  },
  {
    id: 'progress-not-increasing',
    severity: 'error',
    summary: 'a progress notification whose progress is not above the previous one for its token',
    requirements: { handshake: 'PROG-3', stateless: 'S26-PROG-1' },
  },
  {
    id: 'progress-after-response',
    severity: 'error',
    summary: 'a progress notification after the response to its request',
    requirements: { handshake: 'PROG-4', stateless: 'S26-PROG-1' },
  },
  {
    id: 'progress-unknown-token',
    severity: 'error',
    summary: 'a progress notification for a token no request of the other side carried',
    requirements: { handshake: 'PROG-4', stateless: 'S26-PROG-1' },
  },
  {
    id: 'response-after-cancel',
    severity: 'warning',
    summary:
      'a response to a request its sender had cancelled (a warning in the handshake era, an error on 2026-07-28 stdio)',
    requirements: { handshake: 'CANCEL-5', stateless: 'S26-STDIO-4' },
  },
  {
    id: 'cancel-unknown-request',
    severity: 'error',
    summary: 'notifications/cancelled for a request id its sender never used',
    requirements: { handshake: 'CANCEL-2', stateless: 'S26-CANCEL-1' },
  },
  {
    id: 'cancel-initialize',
    severity: 'error',
    summary: 'notifications/cancelled for the initialize request',
    requirements: { handshake: 'CANCEL-3' },
  },
  {
    id: 'unknown-method',
    severity: 'warning',
    summary: 'a method the negotiated revision does not define (a removed method, a typo or an extension)',
    requirements: { handshake: 'LIFE-11', stateless: 'S26-BASE-1' },
  },
  {
    id: 'schema-violation',
    severity: 'error',
    summary:
      'a message that does not validate against the official JSON Schema of the negotiated revision, or that its side may not send',
    requirements: { handshake: 'LIFE-11', stateless: 'S26-BASE-1' },
  },
  {
    id: 'revision-unknown',
    severity: 'warning',
    summary: 'the negotiated revision has no official schema here, so messages are not schema-checked',
    requirements: {},
  },
  {
    id: 'entry-malformed',
    severity: 'error',
    summary:
      'a transcript entry of a known type with a field missing or of the wrong kind (left out of the lint)',
    requirements: {},
  },
] as const satisfies readonly Rule[];

/** The id of a rule of the catalogue. */
export type RuleId = (typeof RULES)[number]['id'];

const BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((rule) => [rule.id, rule]));

/** The rule with id `id`, or undefined for an id the catalogue does not have. */
export function lookupRule(id: string): Rule | undefined {
  return BY_ID.get(id);
}
