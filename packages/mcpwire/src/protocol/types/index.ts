// Every MCP wire type, written once: the handshake-era superset (2024-11-05 .. 2025-11-25) plus 2026-07-28's additions.

export * from './base.ts';
export * from './capabilities.ts';
export * from './lifecycle.ts';
export * from './content.ts';
export * from './resources.ts';
export * from './tools.ts';
export * from './prompts.ts';
export * from './completion.ts';
export * from './logging.ts';
export * from './sampling.ts';
export * from './elicitation.ts';
export * from './roots.ts';
export * from './tasks.ts';
export * from './stateless.ts';
export * from './errors.ts';
