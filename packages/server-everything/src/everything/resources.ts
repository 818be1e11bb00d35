// The everything server's resources: the conformance fixtures (static text, static binary, a template
// with completion) and a subscribable resource that a tool updates.

import type { Server } from 'mcpwire/server';
import { PNG_BASE64 } from './media.ts';

const TEMPLATE_IDS = ['123', '456', '789', '1001'];

/** Registers the resources, the template, and `test_update_watched_resource`. */
export function registerResources(server: Server): void {
  server.resource(
    {
      uri: 'test://static-text',
      name: 'static-text',
      title: 'Static Text Resource',
      description: 'A static text resource for testing',
      mimeType: 'text/plain',
    },
    () => 'This is the content of the static text resource.',
  );
  server.resource(
    {
      uri: 'test://static-binary',
      name: 'static-binary',
      title: 'Static Binary Resource',
      description: 'A static binary resource (image) for testing',
      mimeType: 'image/png',
    },
    (uri) => ({ contents: [{ uri, mimeType: 'image/png', blob: PNG_BASE64 }] }),
  );
  server.resource(
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'template',
      title: 'Resource Template',
      description: 'A resource template with parameter substitution',
      mimeType: 'application/json',
      complete: { id: (value) => TEMPLATE_IDS.filter((id) => id.startsWith(value)) },
    },
    (_uri, variables) => {
      const id = String(variables.id);
      return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
    },
  );
  registerWatchedResource(server);
}

/**
 * `test://watched-resource` (the handshake-era subscribe scenarios' URI) and the tool that changes it: each
 * update bumps a revision and tells subscribed clients via `notifications/resources/updated`.
 */
function registerWatchedResource(server: Server): void {
  const uri = 'test://watched-resource';
  let content = 'Watched resource content';
  let revision = 0;
  server.resource(
    {
      uri,
      name: 'watched-resource',
      title: 'Watched Resource',
      description: 'A subscribable resource; test_update_watched_resource changes it',
      mimeType: 'text/plain',
    },
    () => content,
  );
  server.tool(
    {
      name: 'test_update_watched_resource',
      description:
        'Changes test://watched-resource and notifies subscribed clients (notifications/resources/updated).',
      inputSchema: {
        type: 'object',
        properties: {
          content: { type: 'string', description: 'The new content; default: a revision counter' },
        },
      },
    },
    (args) => {
      revision += 1;
      content =
        typeof args.content === 'string' ? args.content : `Watched resource content (revision ${revision})`;
      server.notifyResourceUpdated(uri);
      return `Updated ${uri} to revision ${revision}.`;
    },
  );
}
