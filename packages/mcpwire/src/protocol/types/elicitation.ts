// Elicitation: a server asks the user, through the client, for structured input (form mode) or to visit a URL.
// Since 2025-06-18 (form only); URL mode, titled and multi-select enums and defaults since 2025-11-25.

import type { Result } from './base.ts';
import type { TaskAugmentedRequestParams } from './tasks.ts';

/** A text field. `default` since 2025-11-25. */
export interface StringSchema {
  type: 'string';
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  default?: string;
}

/** A number field. `default` since 2025-11-25. */
export interface NumberSchema {
  type: 'number' | 'integer';
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  default?: number;
}

/** A yes/no field. */
export interface BooleanSchema {
  type: 'boolean';
  title?: string;
  description?: string;
  default?: boolean;
}

/** Pick one of plain values. Since 2025-11-25 (2025-06-18 had the same shape as its `EnumSchema`). */
export interface UntitledSingleSelectEnumSchema {
  type: 'string';
  title?: string;
  description?: string;
  enum: string[];
  default?: string;
}

/** Pick one of values that each have a display title. Since 2025-11-25. */
export interface TitledSingleSelectEnumSchema {
  type: 'string';
  title?: string;
  description?: string;
  oneOf: Array<{ const: string; title: string }>;
  default?: string;
}

/** Pick one value. Since 2025-11-25. */
export type SingleSelectEnumSchema = UntitledSingleSelectEnumSchema | TitledSingleSelectEnumSchema;

/** Pick any number of plain values. Since 2025-11-25. */
export interface UntitledMultiSelectEnumSchema {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { type: 'string'; enum: string[] };
  default?: string[];
}

/** Pick any number of values that each have a display title. Since 2025-11-25. */
export interface TitledMultiSelectEnumSchema {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { anyOf: Array<{ const: string; title: string }> };
  default?: string[];
}

/** Pick several values. Since 2025-11-25. */
export type MultiSelectEnumSchema = UntitledMultiSelectEnumSchema | TitledMultiSelectEnumSchema;

/**
 * Pick one value, with display names in the non-standard `enumNames`. The only enum form in 2025-06-18 (its
 * `EnumSchema`); kept for compatibility in 2025-11-25. The one to send to 2025-06-18 clients.
 */
export interface LegacyTitledEnumSchema {
  type: 'string';
  title?: string;
  description?: string;
  enum: string[];
  enumNames?: string[];
  default?: string;
}

/** Any enum field. */
export type EnumSchema = SingleSelectEnumSchema | MultiSelectEnumSchema | LegacyTitledEnumSchema;

/** One field of a form: a flat primitive, never a nested object. */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;

/** Params of a form-mode `elicitation/create`. `mode` since 2025-11-25 (absent means form). */
export interface ElicitRequestFormParams extends TaskAugmentedRequestParams {
  mode?: 'form';
  message: string;
  requestedSchema: {
    $schema?: string;
    type: 'object';
    properties: { [key: string]: PrimitiveSchemaDefinition };
    required?: string[];
  };
}

/** Params of a URL-mode `elicitation/create`: the user visits `url` out of band. Since 2025-11-25. */
export interface ElicitRequestURLParams extends TaskAugmentedRequestParams {
  mode: 'url';
  message: string;
  /** Unique per elicitation; echoed by `notifications/elicitation/complete`. Absent in 2026-07-28. */
  elicitationId: string;
  url: string;
}

/** Params of `elicitation/create`. */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams;

/** Result of `elicitation/create`. For URL mode, `accept` means consent to open the URL, not completion. */
export interface ElicitResult extends Result {
  action: 'accept' | 'decline' | 'cancel';
  /** The submitted form, only with `accept` in form mode. `string[]` values since 2025-11-25. */
  content?: { [key: string]: string | number | boolean | string[] };
}

/** Params of `notifications/elicitation/complete` (declared without `_meta`, as in the spec). Since 2025-11-25. */
export interface ElicitationCompleteNotificationParams {
  elicitationId: string;
}

/** The `data` of a -32042 URLElicitationRequiredError: the URL elicitations to complete first. Since 2025-11-25. */
export interface URLElicitationRequiredErrorData {
  elicitations: ElicitRequestURLParams[];
  [key: string]: unknown;
}
