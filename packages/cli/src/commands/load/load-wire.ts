// The requests `load`'s wire engine sends, taken from the library's Client: the first request of
// each step goes through the Client, and what it put on the wire (the message, and over HTTP the
// exchange's headers) becomes that step's template, so the handshake, the revision's envelope and
// headers, and the credentials never drift from the library's.

import type { Channel, JsonObject, Message } from 'mcpwire';
import { encodeHeaderValue, type HttpAuthorization } from 'mcpwire/http';
import type { ConnectionTap } from '../../target/open-client.ts';
import type { StepWire } from './load-steps.ts';
import { decimalOf } from './request-id.ts';

/** One step's request as the Client sent it. */
export interface WireTemplate {
  /** The request message (its id to be replaced). */
  readonly message: JsonObject & { params?: JsonObject };
  /** The message's JSON before and after its id: the body of a request whose params do not change. */
  readonly head: string;
  readonly tail: string;
  /** `tail` and the newline that ends a stdio line: one string, so a line is one concatenation less. */
  readonly tailLine: string;
  /** HTTP only: the header lines (`name: value\r\n`) besides Host, framing, session and credentials. */
  readonly headerLines: string;
}

/** Headers the engine sets itself, per connection or per request, never from a template. */
const OWN_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'mcp-session-id',
  'authorization',
]);
const ID_MARK = '__mcpwire_load_id__';

/**
 * The templates of one run, shared by its connections (they differ only in session id), and the
 * taps that fill them. A step without a template, or one the engine cannot send (see `canSend`),
 * goes through the Client.
 */
export class LoadWire {
  readonly #messages = new Map<string, JsonObject>();
  readonly #headers = new Map<string, Headers>();
  readonly #templates = new Map<string, WireTemplate | null>();
  /** The same, by step: the hot path's lookup. */
  readonly #byStep = new Map<StepWire, WireTemplate | null>();
  /** The credentials of the last exchange the library authorized; updated after a 401. */
  authorization: string | undefined;
  readonly isHttp: boolean;

  constructor(options: { isHttp: boolean }) {
    this.isHttp = options.isHttp;
  }

  /** The step's template; undefined until the Client has sent it, null when the engine must not send it. */
  templateOf(step: StepWire): WireTemplate | null | undefined {
    const known = this.#byStep.get(step);
    if (known !== undefined) return known;
    const template = this.#templateOf(step);
    if (template !== undefined) this.#byStep.set(step, template);
    return template;
  }

  #templateOf(step: StepWire): WireTemplate | null | undefined {
    const key = keyOf(step.method, step.name);
    const known = this.#templates.get(key);
    if (known !== undefined) return known;
    const message = this.#messages.get(key);
    const headers = this.isHttp
      ? (this.#headers.get(headerKeyOf(step.method, step.name)) ?? this.#headers.get('*'))
      : undefined;
    if (message === undefined || (this.isHttp && headers === undefined)) return undefined;
    const template = toTemplate(message, headers, step);
    this.#templates.set(key, template);
    return template;
  }

  /**
   * A tap for one connection: records the requests its Client sends; `onChannel` gets its channel
   * (and returns the one the Client is to use), `onAuthorization` the library's authorization (OAuth).
   */
  tap(
    onChannel: (channel: Channel) => Channel,
    onAuthorization: (inner: HttpAuthorization | undefined) => void = () => {},
  ): ConnectionTap {
    return {
      channel: (inner) => {
        const channel = onChannel(inner);
        const send = channel.send.bind(channel);
        channel.send = (message, options) => {
          if (!Array.isArray(message)) this.#record(message as Message);
          return send(message, options);
        };
        return channel;
      },
      authorization: (inner) => {
        onAuthorization(inner);
        return this.#authorization(inner);
      },
    };
  }

  #record(message: Message): void {
    if (!('method' in message) || !('id' in message)) return;
    const params = message.params as JsonObject | undefined;
    const name =
      typeof params?.name === 'string'
        ? params.name
        : typeof params?.uri === 'string'
          ? params.uri
          : undefined;
    const key = keyOf(message.method, name);
    if (!this.#messages.has(key)) this.#messages.set(key, message as unknown as JsonObject);
    // A templated URI has no fixed key: any read is its first one.
    if (message.method === 'resources/read' && !this.#messages.has(keyOf(message.method, undefined)))
      this.#messages.set(keyOf(message.method, undefined), message as unknown as JsonObject);
  }

  /** Every exchange the Client makes passes here: the headers of its POSTs, credentials included, are kept. */
  #authorization(inner: HttpAuthorization | undefined): HttpAuthorization {
    return {
      send: (exchange, sendOnce) => {
        const recording = (headers: Headers): Promise<Response> => {
          if (exchange.method === 'POST') {
            const method = headers.get('mcp-method');
            this.#headers.set(method === null ? '*' : `${method}\0${headers.get('mcp-name') ?? ''}`, headers);
            this.authorization = headers.get('authorization') ?? undefined;
          }
          return sendOnce(headers);
        };
        return inner === undefined ? recording(exchange.headers) : inner.send(exchange, recording);
      },
    };
  }
}

function keyOf(method: string, name: string | undefined): string {
  return `${method}\0${name ?? ''}`;
}

/** The key of a stateless-era exchange's headers: its Mcp-Method and Mcp-Name as sent. */
function headerKeyOf(method: string, name: string | undefined): string {
  return `${method}\0${name === undefined ? '' : encodeHeaderValue(name)}`;
}

/**
 * The template of `message`, or null when the engine cannot send the step: a header carries a value
 * the step's templates change (an `Mcp-Param-*` argument, or a templated URI's `Mcp-Name`), or each
 * request needs its own proof (DPoP).
 */
function toTemplate(message: JsonObject, headers: Headers | undefined, step: StepWire): WireTemplate | null {
  const isTemplated = step.paramsOf(0, 0) !== undefined;
  let headerLines = '';
  if (headers !== undefined) {
    let isPerRequest = headers.has('dpop');
    headers.forEach((value, name) => {
      if (isTemplated && (name.startsWith('mcp-param-') || (name === 'mcp-name' && step.name === undefined)))
        isPerRequest = true;
      if (!OWN_HEADERS.has(name)) headerLines += `${name}: ${value}\r\n`;
    });
    if (isPerRequest) return null;
  }
  const [head, tail] = JSON.stringify({ ...message, id: ID_MARK }).split(JSON.stringify(ID_MARK)) as [
    string,
    string,
  ];
  return { message: message as WireTemplate['message'], head, tail, tailLine: tail + '\n', headerLines };
}

/** The body of request `id` from `template`, with `params` (those of a step with templates) merged in. */
export function bodyOf(template: WireTemplate, id: number, params: JsonObject | undefined): string {
  // Not `head + id`: its digits would go through V8's number-to-string cache (request-id.ts).
  if (params === undefined) return template.head + decimalOf(id) + template.tail;
  return JSON.stringify(messageOf(template, id, params));
}

/** `bodyOf` as a stdio line, ending in its newline. */
export function lineOf(template: WireTemplate, id: number, params: JsonObject | undefined): string {
  if (params === undefined) return template.head + decimalOf(id) + template.tailLine;
  return JSON.stringify(messageOf(template, id, params)) + '\n';
}

/** The message of request `id` from `template`, with `params` merged over the recorded ones. */
export function messageOf(template: WireTemplate, id: number, params: JsonObject | undefined): JsonObject {
  const { message } = template;
  return params === undefined
    ? { ...message, id }
    : { ...message, id, params: { ...message.params, ...params } };
}
