// When a request went out and its answer came back, as the wire engine reports it to the run loop.

/**
 * When a request was written and its answer read (performance.now() ms), as a connection that
 * knows them reports them (the wire engine); NaN when it does not (a request through the Client).
 */
export interface SendTiming {
  sentAt: number;
  answeredAt: number;
}
