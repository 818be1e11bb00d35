// Resource templates (RES-2): a family of resources under one RFC 6570 URI template. Its checks at
// registration, the instances it lists, its wire form, and completion of its variables (COMP-2).

import type { JsonObject } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import type { Annotations, Icon, Resource, ResourceTemplate } from '../protocol/types/index.ts';
import { UriTemplate } from '../protocol/uri-template.ts';
import type { RequestContext } from './context.ts';

/**
 * Suggests values for one argument of a prompt or resource template (`completion/complete`).
 * `value` is what the user typed so far; `context.arguments` the arguments already resolved.
 * Return the values ranked by relevance; more than 100 are cut to 100 with `hasMore: true`.
 */
export type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
  ctx: RequestContext,
) => string[] | Promise<string[]>;

/** A family of resources addressed by an RFC 6570 URI template. */
export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
  /** Completers keyed by template variable name. */
  complete?: Record<string, Completer>;
  /** Enumerates concrete instances; they appear in `resources/list` after the static resources. */
  list?: (ctx: RequestContext) => Resource[] | Promise<Resource[]>;
}

/** Wire forms, per definition object (an update makes a new definition object). */
const wireForms = new WeakMap<ResourceTemplateDefinition, ResourceTemplate>();

/** Parses and checks a definition at registration; throws TypeError for a malformed template. */
export function parseTemplateDefinition(definition: ResourceTemplateDefinition): UriTemplate {
  const { uriTemplate } = definition;
  if (typeof uriTemplate !== 'string' || uriTemplate === '') {
    throw new TypeError('Invalid resource template: "uriTemplate" must be a non-empty string');
  }
  let template: UriTemplate;
  try {
    template = new UriTemplate(uriTemplate);
  } catch (error) {
    throw new TypeError(`Invalid resource template "${uriTemplate}": ${(error as Error).message}`, {
      cause: error,
    });
  }
  checkTemplateDefinition(definition, template);
  return template;
}

/**
 * Checks a (possibly updated) definition against its registered template: same `uriTemplate`, a
 * non-empty name, completers only for the template's variables. Throws TypeError.
 */
export function checkTemplateDefinition(definition: ResourceTemplateDefinition, template: UriTemplate): void {
  const registered = template.toString();
  if (definition.uriTemplate !== registered) {
    throw new TypeError(
      `Cannot change the uriTemplate of resource template "${registered}": remove it and add a new one`,
    );
  }
  if (typeof definition.name !== 'string' || definition.name === '') {
    throw new TypeError(`Resource template "${registered}" needs a non-empty "name"`);
  }
  const names = template.variableNames;
  for (const variable of Object.keys(definition.complete ?? {})) {
    if (!names.includes(variable)) {
      const known = names.join(', ') || 'none';
      throw new TypeError(
        `Resource template "${registered}" has a completer for "${variable}", which is not one of its variables (${known})`,
      );
    }
  }
}

/** The template's listed instances; the template's `mimeType` fills in for instances without one. */
export async function listTemplateInstances(
  definition: ResourceTemplateDefinition,
  ctx: RequestContext,
): Promise<Resource[]> {
  if (!definition.list) return [];
  const instances = await definition.list(ctx);
  const { mimeType } = definition;
  if (mimeType === undefined) return instances;
  return instances.map((instance) =>
    instance.mimeType === undefined ? { ...instance, mimeType } : instance,
  );
}

/** The wire form of a template: the definition without `complete` and `list`. */
export function toWireTemplate(definition: ResourceTemplateDefinition): ResourceTemplate {
  let wire = wireForms.get(definition);
  if (!wire) {
    const { complete: _complete, list: _list, ...rest } = definition;
    wire = rest;
    wireForms.set(definition, wire);
  }
  return wire;
}

/** Completes one variable: -32602 if the template lacks it; no values if it has no completer. */
export async function completeTemplateVariable(
  definition: ResourceTemplateDefinition,
  template: UriTemplate,
  argument: { name: string; value: string },
  options: { context: { arguments: Record<string, string> }; ctx: RequestContext },
): Promise<string[]> {
  if (!template.variableNames.includes(argument.name)) {
    const message = `Invalid params for "completion/complete": resource template "${definition.uriTemplate}" has no variable "${argument.name}"`;
    throw new RpcError(ErrorCode.InvalidParams, message);
  }
  const completers = definition.complete;
  // Own properties only: a variable named `constructor` must not find Object.prototype's.
  const completer =
    completers && Object.hasOwn(completers, argument.name) ? completers[argument.name] : undefined;
  return completer ? completer(argument.value, options.context, options.ctx) : [];
}
