// The workloads the stdio benchmark runs: what each request looks like and what a correct answer is.
// Adding an era (for example the stateless 2026-07-28 revision) means adding one entry here.
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
  handshake: true,
  protocolVersion: '2025-06-18',
  makeRequest: (i) => ({
    method: 'tools/call',
    params: { name: 'echo', arguments: { message: echoMessage(i) } },
  }),
  check: (response, i) => checkEchoResult(response, echoMessage(i)),
};

/** Every workload the harness runs, in report order. */
export const workloads: readonly Workload[] = [echo2025];
