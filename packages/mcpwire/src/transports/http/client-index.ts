// The client side of the HTTP transports, re-exported by `mcpwire/http`: Streamable HTTP (either era,
// with the HTTP+SSE fall back), the deprecated HTTP+SSE transport on its own, their errors, and the SSE parser.

export {
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from './client-transport.ts';
export type { StreamableHttpClientChannel } from './client-channel.ts';
export {
  SseClientTransport,
  DEFAULT_ENDPOINT_TIMEOUT_MS,
  type SseClientTransportOptions,
} from './legacy-sse-client.ts';
export type { FetchLike, FetcherOptions } from './http-fetcher.ts';
export type { HttpAuthorization } from './http-authorization.ts';
export { DEFAULT_RECONNECTION, type ReconnectionOptions } from './response-stream.ts';
export {
  AnswerUndeliveredError,
  CrossOriginRedirectError,
  FetchFailedError,
  HttpError,
  InvalidToolHeaderError,
  ResponseStreamLostError,
  ResponseTooLargeError,
  SessionExpiredError,
} from './http-errors.ts';
export { encodeHeaderValue, McpHeader } from './mcp-headers.ts';
export {
  readHeaderAnnotations,
  type AnnotationCheck,
  type HeaderAnnotation,
} from './tool-header-annotations.ts';
export {
  decodeSse,
  SseParserStream,
  SseEventTooLargeError,
  DEFAULT_MAX_EVENT_LENGTH,
  type ServerSentEvent,
  type SseParserOptions,
} from './sse-parser.ts';
