// Resources: static resources and URI templates, resources/list, resources/templates/list and
// resources/read (RES-*), and completion of template variables (COMP-2).

import type { JsonObject } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import {
  McpErrorCode,
  type Annotations,
  type Icon,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type PaginatedRequestParams,
  type ReadResourceRequestParams,
  type ReadResourceResult,
  type Resource,
} from '../protocol/types/index.ts';
import { isTemplate, type UriTemplate } from '../protocol/uri-template.ts';
import type { Era, RequestContext } from './context.ts';
import { paginate } from './pagination.ts';
import { Registry, type Registration } from './registry.ts';
import {
  checkTemplateDefinition,
  completeTemplateVariable,
  listTemplateInstances,
  parseTemplateDefinition,
  toWireTemplate,
  type ResourceTemplateDefinition,
} from './resource-templates.ts';

export type { Completer, ResourceTemplateDefinition } from './resource-templates.ts';

/** A resource at one fixed URI. */
export interface StaticResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Raw size in bytes, if known. */
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

/** A resource (`uri`) or a resource template (`uriTemplate`). */
export type ResourceDefinition = StaticResourceDefinition | ResourceTemplateDefinition;

/**
 * What a resource handler may return: a full result, text, or bytes. Text and bytes become one
 * contents item for the requested URI with the definition's `mimeType` (bytes base64-encoded).
 */
export type ReadResourceReturn = ReadResourceResult | string | Uint8Array;

/**
 * Serves one `resources/read`. `variables` are the template's matched variables (empty for a
 * static resource). Throw `createResourceNotFoundError` when a matched URI names nothing; other
 * RpcErrors pass through; anything else becomes -32603.
 */
export type ResourceHandler = (
  uri: string,
  variables: Record<string, string | string[]>,
  ctx: RequestContext,
) => ReadResourceReturn | Promise<ReadResourceReturn>;

/** A registered template's handler with its template, parsed once at registration. */
interface TemplateEntry {
  handler: ResourceHandler;
  template: UriTemplate;
}

/** What `read` found for a URI. */
interface Match {
  handler: ResourceHandler;
  variables: Record<string, string | string[]>;
  mimeType: string | undefined;
}

// RFC 3986 section 4.3 (RES-7, RES-9): an absolute URI starts with a scheme; no whitespace or controls.
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s\u0000-\u001f\u007f]*$/;

/**
 * The era's "resource not found" error, with `data: { uri }`: -32002 in the handshake era (RES-8),
 * -32602 in the stateless era (S26-RES-2, SEP-2164).
 */
export function createResourceNotFoundError(uri: string, era: Era): RpcError {
  const code = era === 'handshake' ? McpErrorCode.ResourceNotFound : ErrorCode.InvalidParams;
  return new RpcError(code, `Resource not found: "${uri}"`, { uri });
}

/** The resources and resource templates of one server definition. */
export class Resources {
  readonly #statics = new Registry<StaticResourceDefinition, ResourceHandler>('resource with URI');
  readonly #templates = new Registry<ResourceTemplateDefinition, TemplateEntry>('resource template');

  /**
   * Registers a resource or a resource template. Throws TypeError for a URI that is not absolute,
   * a malformed template, or a completer for a variable the template lacks; Error if the URI or
   * template is already registered. `update` may not change the URI or template.
   */
  add(definition: ResourceDefinition, handler: ResourceHandler): Registration<ResourceDefinition> {
    if ('uriTemplate' in definition) {
      const template = parseTemplateDefinition(definition);
      const registration = this.#templates.add(definition.uriTemplate, definition, { handler, template });
      return guardUpdates(registration, definition, (next) => checkTemplateDefinition(next, template));
    }
    checkStatic(definition, definition.uri);
    const registration = this.#statics.add(definition.uri, definition, handler);
    return guardUpdates(registration, definition, (next) => checkStatic(next, definition.uri));
  }

  /** True if no resource or template was ever registered (or all were removed). */
  get isEmpty(): boolean {
    return this.#statics.isEmpty && this.#templates.isEmpty;
  }

  /** Subscribes to changes of resources and templates alike; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    const offStatics = this.#statics.onChange(listener);
    const offTemplates = this.#templates.onChange(listener);
    return () => {
      offStatics();
      offTemplates();
    };
  }

  /**
   * `resources/list`: static resources in registration order, then each template's `list()`
   * instances in template registration order. The lists run on every page request, so offsets
   * (and cursors) stay valid while nothing changes.
   */
  async list(
    params: PaginatedRequestParams,
    pageSize: number,
    ctx: RequestContext,
  ): Promise<ListResourcesResult> {
    const statics: Resource[] = this.#statics.list().map(({ definition }) => definition);
    const templates = this.#templates.list();
    const listed = await Promise.all(
      templates.map(({ definition }) => listTemplateInstances(definition, ctx)),
    );
    const { page, nextCursor } = paginate([...statics, ...listed.flat()], params.cursor, pageSize);
    return nextCursor === undefined ? { resources: page } : { resources: page, nextCursor };
  }

  /** `resources/templates/list`, in registration order. */
  listTemplates(params: PaginatedRequestParams, pageSize: number): ListResourceTemplatesResult {
    const templates = this.#templates.list().map(({ definition }) => toWireTemplate(definition));
    const { page, nextCursor } = paginate(templates, params.cursor, pageSize);
    return nextCursor === undefined ? { resourceTemplates: page } : { resourceTemplates: page, nextCursor };
  }

  /**
   * `resources/read`: an exact static URI first, then the templates in registration order (the
   * first whose `match` succeeds serves). Nothing matches: the era's not-found error.
   */
  async read(params: ReadResourceRequestParams, ctx: RequestContext): Promise<ReadResourceResult> {
    // Checked again here: an extension's wrapper may call this with params the row never saw.
    const uri: unknown = params.uri;
    if (typeof uri !== 'string') {
      const message = `Invalid params for "resources/read": expected "uri" to be a string, received ${typeof uri}`;
      throw new RpcError(ErrorCode.InvalidParams, message);
    }
    const found = this.#find(uri);
    if (!found) throw createResourceNotFoundError(uri, ctx.era);
    const returned = await found.handler(uri, found.variables, ctx);
    return toReadResult(returned, uri, found.mimeType);
  }

  /**
   * Completes one variable of the template registered as `uriTemplate` (a `ref/resource`).
   * Unknown template or variable: -32602. A variable without a completer: no values.
   */
  completeArgument(
    uriTemplate: string,
    argument: { name: string; value: string },
    context: { arguments: Record<string, string> },
    ctx: RequestContext,
  ): Promise<string[]> {
    const entry = this.#templates.get(uriTemplate);
    if (!entry) {
      const message = `Invalid params for "completion/complete": no resource template "${uriTemplate}"`;
      return Promise.reject(new RpcError(ErrorCode.InvalidParams, message));
    }
    return completeTemplateVariable(entry.definition, entry.handler.template, argument, { context, ctx });
  }

  #find(uri: string): Match | undefined {
    const exact = this.#statics.get(uri);
    if (exact) return { handler: exact.handler, variables: {}, mimeType: exact.definition.mimeType };
    for (const { definition, handler: entry } of this.#templates.list()) {
      const variables = entry.template.match(uri);
      if (variables) return { handler: entry.handler, variables, mimeType: definition.mimeType };
    }
    return undefined;
  }
}

/**
 * Wraps `update` so that a change cannot move a registration to another key nor leave it with an
 * invalid definition: `check` sees the merged definition first and throws TypeError to refuse it.
 */
function guardUpdates<D>(
  registration: Registration<D>,
  initial: D,
  check: (next: D) => void,
): Registration<D> {
  let current = initial;
  return {
    ...registration,
    update: (changes) => {
      const next = { ...current, ...changes };
      check(next);
      registration.update(changes);
      current = next;
    },
  };
}

/** Checks a (possibly updated) static definition registered under `registered`. Throws TypeError. */
function checkStatic(definition: ResourceDefinition, registered: string): void {
  const uri = (definition as Partial<StaticResourceDefinition>).uri;
  if (typeof uri !== 'string' || !ABSOLUTE_URI.test(uri)) {
    throw new TypeError(
      `Invalid resource URI ${JSON.stringify(uri)}: expected an absolute URI (RFC 3986) such as "file:///notes.txt"`,
    );
  }
  if (isTemplate(uri)) {
    throw new TypeError(
      `Resource URI "${uri}" contains a template expression: register it as { uriTemplate } instead`,
    );
  }
  if (uri !== registered || 'uriTemplate' in definition) {
    throw new TypeError(`Cannot change the URI of resource "${registered}": remove it and add a new one`);
  }
  if (typeof definition.name !== 'string' || definition.name === '') {
    throw new TypeError(`Resource "${uri}" needs a non-empty "name"`);
  }
}

function toReadResult(
  returned: ReadResourceReturn,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult {
  const base = mimeType === undefined ? { uri } : { uri, mimeType };
  if (typeof returned === 'string') return { contents: [{ ...base, text: returned }] };
  if (returned instanceof Uint8Array) return { contents: [{ ...base, blob: toBase64(returned) }] };
  if (typeof returned !== 'object' || returned === null || !Array.isArray(returned.contents)) {
    // A plain Error: the peer answers -32603 and keeps this for the logs.
    const received = returned === null ? 'null' : typeof returned;
    throw new Error(
      `Resource handler for "${uri}" returned ${received}; expected a ReadResourceResult, a string or a Uint8Array`,
    );
  }
  return returned;
}

/** Base64 without Node's Buffer (the server layer stays runtime-neutral). */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunked: spreading a huge array into fromCharCode would overflow the call stack.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
