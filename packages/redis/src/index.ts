// @mcpwire/redis: mcpwire's session store, message bus and event store on Redis (issue 24). The
// implementations land in the following commits; this entry point exports nothing yet.
export {};
