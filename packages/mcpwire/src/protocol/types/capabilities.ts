// Capability objects exchanged at initialization (and, from 2026-07-28, per request and in server/discover).
// Both are open: implementations may add their own keys.

import type { JsonObject } from './base.ts';

/** What a client supports; a feature is offered only if its key is present. */
export interface ClientCapabilities {
  /** Non-standard features, keyed by name. */
  experimental?: { [key: string]: JsonObject };
  roots?: {
    /** The client sends `notifications/roots/list_changed`. Removed in 2026-07-28. */
    listChanged?: boolean;
  };
  /** `sampling/createMessage` is supported. `context` and `tools` since 2025-11-25. */
  sampling?: { context?: JsonObject; tools?: JsonObject; [key: string]: unknown };
  /** `elicitation/create` is supported. Since 2025-06-18; `form` and `url` since 2025-11-25 (`{}` means form only). */
  elicitation?: { form?: JsonObject; url?: JsonObject; [key: string]: unknown };
  /** Task-augmented requests the client can receive. Since 2025-11-25; removed in 2026-07-28. */
  tasks?: {
    list?: JsonObject;
    cancel?: JsonObject;
    requests?: {
      sampling?: { createMessage?: JsonObject };
      elicitation?: { create?: JsonObject };
    };
  };
  /** Extensions, keyed by identifier such as `io.modelcontextprotocol/tasks`. Since 2026-07-28. */
  extensions?: { [id: string]: JsonObject };
  [key: string]: unknown;
}

/** What a server supports; a feature is offered only if its key is present. */
export interface ServerCapabilities {
  /** Non-standard features, keyed by name. */
  experimental?: { [key: string]: JsonObject };
  /** The server sends `notifications/message` (and, before 2026-07-28, accepts `logging/setLevel`). */
  logging?: JsonObject;
  /** The server answers `completion/complete`. Since 2025-03-26. */
  completions?: JsonObject;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  /** Task-augmented requests the server can receive. Since 2025-11-25; removed in 2026-07-28. */
  tasks?: {
    list?: JsonObject;
    cancel?: JsonObject;
    requests?: { tools?: { call?: JsonObject } };
  };
  /** Extensions, keyed by identifier such as `io.modelcontextprotocol/tasks`. Since 2026-07-28. */
  extensions?: { [id: string]: JsonObject };
  [key: string]: unknown;
}
