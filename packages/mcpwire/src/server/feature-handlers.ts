// The resources, prompts and completions features `Server` adds to `ServerCore`: their registries and
// the handlers of their methods. Only server.ts imports this module, so a bundle built on ServerCore
// (tools and extensions alone) carries none of it: no URI templates, no prompt arguments, no completer.

import { complete } from './completion.ts';
import type { FeatureHandlers } from './method-handlers.ts';
import { Prompts } from './prompts.ts';
import { Resources } from './resources.ts';
import type { ServerFeatures } from './server-core.ts';

/** Fresh registries for one server definition, and the handlers that serve them. */
export function createFeatures(): ServerFeatures {
  const resources = new Resources();
  const prompts = new Prompts();
  const handlers: FeatureHandlers = {
    'resources/list': (params, ctx, { server }) => resources.list(params, server.pageSize, ctx),
    'resources/templates/list': (params, _ctx, { server }) =>
      Promise.resolve(resources.listTemplates(params, server.pageSize)),
    'resources/read': (params, ctx) => resources.read(params, ctx),
    'prompts/list': (params, _ctx, { server }) => Promise.resolve(prompts.list(params, server.pageSize)),
    'prompts/get': (params, ctx) => prompts.get(params, ctx),
    'completion/complete': (params, ctx) => complete(params, ctx, { prompts, resources }),
  };
  return { resources, prompts, handlers };
}
