// The github server's input errors: a thing the caller named that does not exist, or a value it
// may not use. Tool handlers let them through as `isError` results; resources and prompts map them.

/** What the caller got wrong: the message names the argument and what was expected. */
export class GithubInputError extends Error {
  readonly code = 'GITHUB_INPUT';
  constructor(message: string) {
    super(message);
    this.name = 'GithubInputError';
  }
}

/** Quotes a caller's value for an error message, cut to 80 characters (a huge input stays readable). */
export function quote(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}
