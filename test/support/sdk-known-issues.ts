// Known bugs of the official SDKs that tests meet as peers, in one place for every package's tests.

/** modelcontextprotocol/typescript-sdk#2580: the SDK reports a final progress that shares a read with its response. */
export const KNOWN_PROGRESS_RACE = /^Received a progress notification for an unknown token/;
