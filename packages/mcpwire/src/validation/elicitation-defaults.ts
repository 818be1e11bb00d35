// Pre-filling an elicitation form from the `default`s of its requested schema (ELIC-6, SEP-1034).

/** A default SEP-1034 allows: string, number, integer, boolean, an enum choice, or a multi-select list. */
export type ElicitationDefault = string | number | boolean | string[];

/** The part of an elicitation `requestedSchema` this module reads; the protocol's type satisfies it. */
export interface ElicitationSchemaLike {
  readonly properties?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Returns a new content object: `content` plus, for every property of `requestedSchema` that `content` lacks
 * (absent or `undefined`), that property's `default`. Provided values are never overridden; neither argument is
 * modified. A default whose JSON type does not match the property's `type` (ELIC-5) is ignored, and list
 * defaults are copied, so editing the form never changes the schema.
 */
export function applyElicitationDefaults<V>(
  requestedSchema: ElicitationSchemaLike,
  content: Readonly<Record<string, V>> | undefined,
): Record<string, V | ElicitationDefault> {
  const filled: Record<string, V | ElicitationDefault> = { ...content };
  const properties = requestedSchema.properties;
  if (typeof properties !== 'object' || properties === null) return filled;
  for (const [name, property] of Object.entries(properties)) {
    // hasOwn: a field named "constructor" or "toString" is absent unless content has it.
    if (Object.hasOwn(filled, name) && filled[name] !== undefined) continue;
    const value = defaultOf(property);
    if (value === undefined) continue;
    // defineProperty, not assignment: a property named "__proto__" must stay data.
    Object.defineProperty(filled, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return filled;
}

function defaultOf(property: unknown): ElicitationDefault | undefined {
  if (typeof property !== 'object' || property === null) return undefined;
  const { type, default: value } = property as { type?: unknown; default?: unknown };
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'array':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? [...value] : undefined;
    default:
      return undefined;
  }
}
