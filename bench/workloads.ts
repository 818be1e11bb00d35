// The workloads the stdio benchmark runs: what each request looks like and what a correct answer is.
// One workload per protocol era: 2025-06-18 (initialize handshake) and 2026-07-28 (stateless, per-request envelope).
import type { RawResponse, Workload } from './raw-driver.ts';

/** The text request `i` asks the `echo` tool to return; distinct per request so mixed-up answers are caught. */
function echoMessage(i: number): string {
  return `hello ${i}`;
}

/** Checks a `tools/call` result is exactly one text block equal to `expected`, and not a tool failure. */
function checkEchoResult(response: RawResponse, expected: string): string | undefined {
  const result = response.result as { content?: unknown; isError?: unknown } | undefined;
  if (result === undefined || result === null || typeof result !== 'object') return 'missing result';
  if (result.isError === true) return `tool failure: ${JSON.stringify(result.content).slice(0, 120)}`;
  const content = result.content;
  if (!Array.isArray(content) || content.length !== 1)
    return `expected one content block, received ${JSON.stringify(content)}`;
  const block = content[0] as { type?: unknown; text?: unknown };
  if (block.type !== 'text' || block.text !== expected) {
    return `expected text ${JSON.stringify(expected)}, received ${JSON.stringify(block).slice(0, 120)}`;
  }
  return undefined;
}

/** `tools/call echo` over the 2025-06-18 lifecycle (initialize handshake first). */
export const echo2025: Workload = {
  name: 'echo (2025-06-18)',
  era: 'handshake',
  handshake: true,
  protocolVersion: '2025-06-18',
  makeRequest: (i) => ({
    method: 'tools/call',
    params: { name: 'echo', arguments: { message: echoMessage(i) } },
  }),
  check: (response, i) => checkEchoResult(response, echoMessage(i)),
};

const STATELESS_VERSION = '2026-07-28';

/**
 * The per-request `_meta` envelope every 2026-07-28 request carries: the two required keys plus `clientInfo`
 * (a SHOULD), as a real client sends it. Shared by reference; each request is serialised on its own.
 */
const statelessEnvelope = {
  'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'mcpwire-bench', version: '0.0.0' },
} as const;

/** Every 2026-07-28 result must say `resultType: "complete"` (or another recognised value; only this one here). */
function checkResultType(response: RawResponse): string | undefined {
  const resultType = (response.result as { resultType?: unknown } | undefined)?.resultType;
  return resultType === 'complete'
    ? undefined
    : `expected resultType "complete", received ${JSON.stringify(resultType)}`;
}

/** Checks a `server/discover` result names 2026-07-28 and declares `tools` (the workload calls a tool). */
function checkDiscoverResult(response: RawResponse): string | undefined {
  const result = response.result as
    { supportedVersions?: unknown; capabilities?: { tools?: unknown } } | undefined;
  if (result === undefined || result === null || typeof result !== 'object') return 'missing result';
  const wrongType = checkResultType(response);
  if (wrongType !== undefined) return `server/discover: ${wrongType}`;
  if (!Array.isArray(result.supportedVersions) || !result.supportedVersions.includes(STATELESS_VERSION)) {
    return `server/discover: supportedVersions ${JSON.stringify(result.supportedVersions)} lacks ${STATELESS_VERSION}`;
  }
  if (result.capabilities?.tools === undefined) return 'server/discover: capabilities do not declare tools';
  return undefined;
}

/**
 * `tools/call echo` over the stateless 2026-07-28 revision: no handshake; the connection opens with the
 * `server/discover` probe a dual-era client sends first (spawn→ready ends when it is answered), and every
 * request carries the `_meta` envelope.
 */
export const echo2026: Workload = {
  name: 'echo (2026-07-28)',
  era: 'stateless',
  protocolVersion: STATELESS_VERSION,
  open: {
    request: { method: 'server/discover', params: { _meta: statelessEnvelope } },
    check: checkDiscoverResult,
  },
  makeRequest: (i) => ({
    method: 'tools/call',
    params: { name: 'echo', arguments: { message: echoMessage(i) }, _meta: statelessEnvelope },
  }),
  check: (response, i) => checkEchoResult(response, echoMessage(i)) ?? checkResultType(response),
};

/** Every workload the harness runs, in report order. */
export const workloads: readonly Workload[] = [echo2025, echo2026];
