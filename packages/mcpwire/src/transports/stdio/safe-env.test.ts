// The child environment: only allow-listed variables are inherited, configured ones are added.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createChildEnvironment, POSIX_INHERITED_ENV, WINDOWS_INHERITED_ENV } from './safe-env.ts';

const POSIX_SOURCE = {
  HOME: '/home/ada',
  PATH: '/usr/bin:/bin',
  LANG: 'C.UTF-8',
  TZ: 'UTC',
  API_TOKEN: 'secret',
  AWS_SECRET_ACCESS_KEY: 'secret',
  NODE_OPTIONS: '--require /tmp/evil.js',
  LD_PRELOAD: '/tmp/evil.so',
  SHELL: '() { :;}; echo pwned',
  TERM: undefined,
};

describe('createChildEnvironment', () => {
  it('inherits only the allow-listed POSIX variables', () => {
    const env = createChildEnvironment({}, { source: POSIX_SOURCE, platform: 'linux' });
    assert.deepEqual(env, { HOME: '/home/ada', PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', TZ: 'UTC' });
  });

  it('never inherits NODE_OPTIONS, even though it is set', () => {
    assert.ok(!POSIX_INHERITED_ENV.includes('NODE_OPTIONS'));
    const env = createChildEnvironment({}, { source: POSIX_SOURCE, platform: 'darwin' });
    assert.equal(env.NODE_OPTIONS, undefined);
  });

  it('skips values that are exported shell functions', () => {
    const env = createChildEnvironment({}, { source: POSIX_SOURCE, platform: 'linux' });
    assert.equal('SHELL' in env, false);
  });

  it('adds configured variables, which win over inherited ones', () => {
    const env = createChildEnvironment(
      { PATH: '/opt/bin', API_TOKEN: 'for-this-server' },
      { source: POSIX_SOURCE, platform: 'linux' },
    );
    assert.equal(env.PATH, '/opt/bin');
    assert.equal(env.API_TOKEN, 'for-this-server');
    assert.equal(env.HOME, '/home/ada');
  });

  it('lets a configured variable through even if it looks like a shell function', () => {
    const env = createChildEnvironment({ F: '() { :; }' }, { source: {}, platform: 'linux' });
    assert.deepEqual(env, { F: '() { :; }' });
  });

  it('uses the Windows allow-list, matched case-insensitively', () => {
    const source = {
      Path: 'C:\\Windows',
      SystemRoot: 'C:\\Windows',
      USERPROFILE: 'C:\\Users\\ada',
      HOME: 'x',
      GITHUB_TOKEN: 's',
    };
    const env = createChildEnvironment({ PATH: 'C:\\tools' }, { source, platform: 'win32' });
    assert.deepEqual(env, { SystemRoot: 'C:\\Windows', USERPROFILE: 'C:\\Users\\ada', PATH: 'C:\\tools' });
    assert.ok(WINDOWS_INHERITED_ENV.includes('SYSTEMROOT'));
  });

  it('reads process.env by default and does not modify it', () => {
    const before = { ...process.env };
    const env = createChildEnvironment({ EXTRA: '1' });
    assert.deepEqual({ ...process.env }, before);
    assert.equal(env.EXTRA, '1');
    if (process.platform !== 'win32' && process.env.PATH !== undefined)
      assert.equal(env.PATH, process.env.PATH);
  });
});
