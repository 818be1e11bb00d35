// Runs every golden wire transcript (test/golden/<era>/*.transcript) through the everything server.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createEverythingServer } from '../src/everything.ts';
import { runTranscript } from './golden/runner.ts';

const root = join(import.meta.dirname, 'golden');
for (const era of ['handshake', 'stateless']) {
  for (const name of readdirSync(join(root, era))
    .filter((file) => file.endsWith('.transcript'))
    .sort()) {
    test(`golden ${era}/${name}`, () =>
      runTranscript(join(root, era, name), (channel) => {
        const server = createEverythingServer();
        server.connect(channel);
        return server;
      }));
  }
}
