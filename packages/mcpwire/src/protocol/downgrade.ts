// Making what a handler produced valid for an older negotiated revision (section 3 of the 2025
// checklist: "after negotiating an older version, send only that version's message shapes").

import type { JsonObject } from '../jsonrpc/message.ts';
import { adaptContentForRevision, hasFeature } from './revisions.ts';
import type { ContentBlock } from './types/index.ts';

/**
 * A result of `method` shaped for revision `version`: content blocks the revision lacks
 * (audio before 2025-03-26, resource_link before 2025-06-18) become text stand-ins in tool
 * results and prompt messages. Returns the same object when nothing needs changing.
 */
export function adaptResultForRevision(method: string, result: JsonObject, version: string): JsonObject {
  if (hasFeature(version, 'resourceLink')) return result;
  if (method === 'tools/call' && Array.isArray(result.content)) {
    return {
      ...result,
      content: (result.content as ContentBlock[]).map((block) => adaptContentForRevision(block, version)),
    };
  }
  if (method === 'prompts/get' && Array.isArray(result.messages)) {
    const messages = (result.messages as Array<{ content: ContentBlock }>).map((message) => ({
      ...message,
      content: adaptContentForRevision(message.content, version),
    }));
    return { ...result, messages };
  }
  return result;
}

/**
 * `elicitation/create` params shaped for revision `version`. Before 2025-11-25 there is no `mode`,
 * titled single-select is `enum` + `enumNames`, and only booleans carry defaults (2025-06-18);
 * multi-select has no older form, so it throws a TypeError naming the property.
 */
export function adaptElicitationForRevision(params: JsonObject, version: string): JsonObject {
  if (hasFeature(version, 'elicitationUrl')) return params;
  const { mode: _mode, ...rest } = params;
  const schema = rest.requestedSchema as { properties?: Record<string, JsonObject> } | undefined;
  if (!schema?.properties) return rest;
  const properties: Record<string, JsonObject> = {};
  for (const [name, property] of Object.entries(schema.properties))
    properties[name] = adaptProperty(name, property, version);
  return { ...rest, requestedSchema: { ...schema, properties } };
}

function adaptProperty(name: string, property: JsonObject, version: string): JsonObject {
  if (property.type === 'array') {
    throw new TypeError(
      `Protocol revision ${version} has no multi-select elicitation fields (property "${name}"); they need 2025-11-25`,
    );
  }
  let adapted = property;
  if (Array.isArray(property.oneOf)) {
    const { oneOf, ...others } = property;
    const options = oneOf as Array<{ const: string; title?: string }>;
    adapted = {
      ...others,
      enum: options.map((o) => o.const),
      enumNames: options.map((o) => o.title ?? o.const),
    };
  }
  if (adapted.type !== 'boolean' && 'default' in adapted) {
    const { default: _default, ...withoutDefault } = adapted;
    adapted = withoutDefault;
  }
  return adapted;
}

/**
 * `sampling/createMessage` params shaped for revision `version`: before 2025-11-25 each message
 * holds one content block (a one-block array is unwrapped; more throws a TypeError), and blocks
 * the revision lacks become text stand-ins.
 */
export function adaptSamplingForRevision(params: JsonObject, version: string): JsonObject {
  if (hasFeature(version, 'samplingTools') || !Array.isArray(params.messages)) return params;
  const messages = (params.messages as Array<{ content: ContentBlock | ContentBlock[] }>).map(
    (message, index) => {
      let content = message.content;
      if (Array.isArray(content)) {
        if (content.length !== 1)
          throw new TypeError(
            `Protocol revision ${version} allows one content block per sampling message (message ${index} has ${content.length})`,
          );
        content = content[0]!;
      }
      return { ...message, content: adaptContentForRevision(content, version) };
    },
  );
  return { ...params, messages };
}
