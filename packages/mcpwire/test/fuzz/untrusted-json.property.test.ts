// A fuzz target per walker of the library over JSON from a peer (issue 21): the codec, canonical JSON
// (validator cache keys, the requestState binding and seal), the `x-mcp-header` walks of the server
// and of the HTTP client, and both JSON Schema validators with cfworker's message paths. The inputs
// and the pass rule: test/support/hostile-json.ts.

import { decodeFrame } from '../../src/jsonrpc/codec.ts';
import { checkParamHeaders, findHeaderParams } from '../../src/transports/http/param-headers.ts';
import {
  readHeaderAnnotations,
  ToolHeaderRegistry,
} from '../../src/transports/http/tool-header-annotations.ts';
import { createAjvValidator } from '../../src/validation/ajv-validator.ts';
import { toCanonicalJson } from '../../src/validation/canonical-json.ts';
import { createCfWorkerValidator } from '../../src/validation/cfworker-validator.ts';
import type { JsonSchema } from '../../src/validation/json-schema-validator.ts';
import { fuzzTargets, type FuzzTarget } from '../../../../test/support/hostile-json.ts';

const NO_HEADERS = { get: (): string | null => null };
// One validator each, as a Client or Server keeps one: its cache sees every schema.
const ajv = createAjvValidator();
const cfworker = createCfWorkerValidator();

const TARGETS: readonly FuzzTarget[] = [
  { name: 'codec decodeFrame', run: (input) => decodeFrame(input.text) },
  { name: 'canonical JSON', run: (input) => toCanonicalJson(input.value) },
  {
    name: 'param headers (server)',
    run: (input) => checkParamHeaders(findHeaderParams(input.value), input.value, NO_HEADERS),
  },
  {
    name: 'header annotations (client tools/list)',
    run: (input) => {
      readHeaderAnnotations(input.value);
      return new ToolHeaderRegistry(() => {}).filterToolsList({
        tools: [{ name: 't', inputSchema: input.value }],
      });
    },
  },
  { name: 'Ajv validator', run: (input) => ajv.compile(input.value as JsonSchema)(input.value) },
  {
    name: 'cfworker validator and its message paths',
    run: (input) => cfworker.compile(input.value as JsonSchema)(input.value),
  },
];

fuzzTargets('fuzz targets: library walkers over untrusted JSON', TARGETS);
