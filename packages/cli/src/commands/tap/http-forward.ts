// One exchange through the HTTP tap: checked (Host, Origin, a path as target, body size), then sent to
// the upstream's origin with the same method, path, query, end-to-end headers and body, and the response passed back as it arrives,
// chunk by chunk; a client that goes away aborts the upstream request.

import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { WireRecorder } from '../../wire/recorder.ts';
import { observeResponse, recordPosted, type ResponseObserver } from './http-observe.ts';
import {
  endToEndHeaders,
  MAX_BODY_BYTES,
  toRecordedHeaders,
  upstreamTarget,
  type RequestPolicy,
} from './http-policy.ts';

/** What every exchange of one tap shares. */
export interface ForwardContext {
  upstream: URL;
  policy: RequestPolicy;
  recorder: WireRecorder;
  /** Numbers the exchanges, from 1. */
  nextExchange: () => number;
  diagnose: (line: string) => void;
}

/** Handles one request to the tap (node:http request listener). Never throws. */
export function forwardExchange(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  context: ForwardContext,
): void {
  const refusal = context.policy.refusal(incoming.headers.host, incoming.headers.origin);
  if (refusal !== undefined) {
    context.recorder.record({
      type: 'note',
      text: `refused ${incoming.method ?? ''} ${incoming.url ?? ''}: ${refusal}`,
    });
    answer(outgoing, 403, refusal);
    incoming.resume();
    return;
  }
  const target = upstreamTarget(incoming.url ?? '', incoming.headers.host, context.upstream);
  if (target === undefined) {
    const reason = `Bad Request: mcpwire tap forwards only to ${context.upstream.origin}; the request target must be a path`;
    context.recorder.record({
      type: 'note',
      text: `refused ${incoming.method ?? ''} ${incoming.url ?? ''}: ${reason}`,
    });
    outgoing.setHeader('Connection', 'close');
    answer(outgoing, 400, reason);
    incoming.resume();
    return;
  }
  readBody(incoming).then(
    (body) => {
      if (body === undefined) {
        outgoing.setHeader('Connection', 'close');
        answer(outgoing, 413, `Payload Too Large: the limit is ${MAX_BODY_BYTES} bytes`);
      } else sendUpstream({ incoming, target, body }, outgoing, context);
    },
    // The client left before its body ended: there is nobody to answer.
    () => outgoing.destroy(),
  );
}

/** One checked request: what came in, where it goes (always the upstream's origin), its whole body. */
interface Checked {
  incoming: IncomingMessage;
  target: URL;
  body: Buffer;
}

function sendUpstream(
  { incoming, target, body }: Checked,
  outgoing: ServerResponse,
  context: ForwardContext,
): void {
  const { upstream, recorder } = context;
  const exchange = context.nextExchange();
  const headers = endToEndHeaders(incoming.rawHeaders, ['host', 'content-length']);
  recorder.record({
    type: 'http-request',
    exchange,
    method: incoming.method ?? 'GET',
    url: target.href,
    headers: toRecordedHeaders(headers),
  });
  recordPosted(recorder, exchange, body.toString('utf8'));
  headers.push('Host', upstream.host);
  if (body.length > 0 || !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(incoming.method ?? 'GET'))
    headers.push('Content-Length', String(body.length));
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstreamRequest = send(target, { method: incoming.method ?? 'GET', headers });
  let observer: ResponseObserver | undefined;
  outgoing.once('close', () => {
    if (outgoing.writableFinished) return;
    // The client went away mid-exchange: so does the tap's request upstream.
    upstreamRequest.destroy();
    void (
      observer?.end('closed by the client') ??
      recorder.record({ type: 'http-end', exchange, error: 'closed by the client' })
    );
  });
  upstreamRequest.once('response', (response) => {
    observer = observeResponse(recorder, exchange, {
      status: response.statusCode ?? 502,
      headers: toRecordedHeaders(endToEndHeaders(response.rawHeaders)),
    });
    passBack(response, outgoing, observer);
  });
  upstreamRequest.once('error', (error) => {
    if (observer !== undefined || outgoing.destroyed) return;
    recorder.record({ type: 'http-end', exchange, error: error.message });
    context.diagnose(`mcpwire tap: ${upstream.href} cannot be reached: ${error.message}`);
    answer(outgoing, 502, `Bad Gateway: mcpwire tap cannot reach ${upstream.href} (${error.message})`);
  });
  upstreamRequest.end(body);
}

/** Passes the upstream response on: status, end-to-end headers, then each chunk as it arrives. */
function passBack(response: IncomingMessage, outgoing: ServerResponse, observer: ResponseObserver): void {
  outgoing.writeHead(
    response.statusCode ?? 502,
    response.statusMessage,
    endToEndHeaders(response.rawHeaders),
  );
  // An SSE stream's headers go out now, before its first event.
  outgoing.flushHeaders();
  response.on('data', (chunk: Buffer) => {
    if (!outgoing.write(chunk)) response.pause();
    observer.push(chunk);
  });
  outgoing.on('drain', () => response.resume());
  response.once('end', () => {
    outgoing.end();
    void observer.end();
  });
  response.once('error', (error) => {
    void observer.end(error.message);
    outgoing.destroy();
  });
}

/** The body, or undefined when it is larger than MAX_BODY_BYTES (read no further). */
function readBody(incoming: IncomingMessage): Promise<Buffer | undefined> {
  const declared = Number(incoming.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        incoming.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    incoming.once('end', () => resolve(Buffer.concat(chunks)));
    incoming.once('error', reject);
    incoming.once('close', () => {
      if (!incoming.complete) reject(new Error('the client closed the connection before the body ended'));
    });
  });
}

function answer(outgoing: ServerResponse, status: number, text: string): void {
  if (outgoing.headersSent) return;
  outgoing.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  outgoing.end(text);
}
