import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLIENT_CAPABILITIES_META, requestClientCapabilities } from './request-capabilities.ts';

describe('requestClientCapabilities', () => {
  const negotiated = { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } };

  it('narrows to the capabilities the request names, keeping the negotiated values', () => {
    const meta = { [CLIENT_CAPABILITIES_META]: { sampling: { tools: {} }, roots: {} } };
    assert.deepEqual(requestClientCapabilities(negotiated, meta), {
      sampling: {},
      roots: { listChanged: true },
    });
  });

  it('never widens: a capability the connection did not negotiate stays absent', () => {
    const meta = { [CLIENT_CAPABILITIES_META]: { sampling: {}, experimental: { x: {} } } };
    assert.deepEqual(requestClientCapabilities({ roots: {} }, meta), {});
  });

  it('without the key, or with a value that is no object, the negotiated set as it is', () => {
    assert.equal(requestClientCapabilities(negotiated, {}), negotiated);
    assert.equal(
      requestClientCapabilities(negotiated, { [CLIENT_CAPABILITIES_META]: ['sampling'] }),
      negotiated,
    );
    assert.equal(requestClientCapabilities(negotiated, { [CLIENT_CAPABILITIES_META]: null }), negotiated);
  });
});
