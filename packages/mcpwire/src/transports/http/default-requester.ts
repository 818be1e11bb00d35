// The default Requester outside Node (browsers, Workers, Deno, Bun): the global fetch. Node gets
// ./node-requester.ts instead, through package.json "imports" (`#default-requester`).

import { FetchRequester, type Requester } from './requester.ts';

/** The global `fetch`, looked up at each request (so a later replacement is used). */
export function createDefaultRequester(): Requester {
  return new FetchRequester((request) => fetch(request));
}
