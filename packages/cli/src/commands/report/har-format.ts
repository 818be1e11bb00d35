// The part of HAR 1.2 (the HTTP Archive format, W3C Web Performance draft "HTTP Archive (HAR)
// format", version 1.2) that `mcpwire report --har` writes. Optional fields we never set are left out.

/** A name and value: a header or a query parameter. */
export interface HarNameValue {
  name: string;
  value: string;
}

/** The `log` object's `creator`: the program that wrote the file. */
export interface HarCreator {
  name: string;
  version: string;
  comment?: string;
}

/** A posted body. `text` and `params` are mutually exclusive; we post JSON, so `text`. */
export interface HarPostData {
  mimeType: string;
  text: string;
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: HarPostData;
  /** -1: not known (the recorder sees headers, not the bytes of the head). */
  headersSize: number;
  bodySize: number;
}

export interface HarContent {
  /** Bytes of `text` as UTF-8. */
  size: number;
  mimeType: string;
  text?: string;
  comment?: string;
}

export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  content: HarContent;
  redirectURL: string;
  headersSize: number;
  bodySize: number;
  comment?: string;
}

/** Milliseconds; -1 for a phase that does not apply or was not measured. */
export interface HarTimings {
  blocked: number;
  dns: number;
  connect: number;
  send: number;
  wait: number;
  receive: number;
  ssl: number;
}

export interface HarEntry {
  startedDateTime: string;
  /** The sum of the timings that are not -1 (ssl excluded, as the spec says). */
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: HarTimings;
  comment?: string;
}

/** A whole HAR file. */
export interface Har {
  log: {
    version: '1.2';
    creator: HarCreator;
    entries: HarEntry[];
    comment?: string;
  };
}
