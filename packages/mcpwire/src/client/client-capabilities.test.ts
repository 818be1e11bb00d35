import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createClientCapabilities,
  declaredElicitationModes,
  type CapabilitySources,
} from './client-capabilities.ts';

const none: CapabilitySources = {
  extra: undefined,
  hasSampling: false,
  hasElicitation: false,
  elicitationModes: undefined,
  hasRoots: false,
  protocolVersion: '2025-11-25',
};

test('handlers declare sampling, elicitation (both modes) and roots with listChanged', () => {
  assert.deepEqual(createClientCapabilities(none), {});
  assert.deepEqual(
    createClientCapabilities({ ...none, hasSampling: true, hasElicitation: true, hasRoots: true }),
    {
      sampling: {},
      elicitation: { form: {}, url: {} },
      roots: { listChanged: true },
    },
  );
});

test('extra capabilities are kept and win over derived sub-flags', () => {
  const extra = {
    sampling: { tools: {} },
    elicitation: { form: {} },
    roots: { listChanged: false },
    experimental: { x: {} },
  };
  assert.deepEqual(
    createClientCapabilities({ ...none, extra, hasSampling: true, hasElicitation: true, hasRoots: true }),
    extra,
  );
});

test('elicitationModes restricts the declared modes; older revisions get the form-only {}', () => {
  assert.deepEqual(
    createClientCapabilities({ ...none, hasElicitation: true, elicitationModes: ['url'] }).elicitation,
    { url: {} },
  );
  assert.deepEqual(
    createClientCapabilities({ ...none, hasElicitation: true, protocolVersion: '2025-06-18' }).elicitation,
    {},
  );
  assert.throws(
    () => createClientCapabilities({ ...none, hasElicitation: true, elicitationModes: [] }),
    TypeError,
  );
  assert.throws(
    () =>
      createClientCapabilities({
        ...none,
        hasElicitation: true,
        elicitationModes: ['url'],
        protocolVersion: '2025-06-18',
      }),
    TypeError,
  );
});

test('declaredElicitationModes reads {} as form only (ELIC-1)', () => {
  assert.deepEqual(declaredElicitationModes({}), []);
  assert.deepEqual(declaredElicitationModes({ elicitation: {} }), ['form']);
  assert.deepEqual(declaredElicitationModes({ elicitation: { url: {} } }), ['url']);
  assert.deepEqual(declaredElicitationModes({ elicitation: { form: {}, url: {} } }), ['form', 'url']);
});
