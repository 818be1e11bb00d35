// The one shape of fetch the auth layer takes and returns, the same as the HTTP client transport's.

/** A fetch function: the global `fetch`, or anything of its shape (a test double, another wrapper). */
export type FetchLike = (request: Request) => Promise<Response>;
