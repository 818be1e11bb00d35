// The HTTP exchanges of one client through the proxy in front of the nodes (issue 24, point 2): a
// fetch for any client's transport (ours, the official v1 and v2) that records each exchange and
// the node that answered, so a test can say which node served which message.

import { NODE_HEADER } from '../../../../test/support/redis-nodes.ts';

/** One HTTP exchange of a client through the proxy: its method, its body, the node that answered. */
export interface Exchange {
  readonly method: string;
  readonly body: string;
  readonly status: number;
  readonly node: string;
}

/** How many turns of the round-robin a request may meet a dead node before its 503 is the answer. */
const DEAD_NODE_TURNS = 5;

/**
 * A fetch that records each exchange and the node that answered. With `isRetryingDeadNode`, a 503
 * that no node answered (HAProxy's own, when its turn of the round-robin met a SIGKILLed node: the
 * request reached no node) is sent again, as a client would after a balancer's error page.
 */
export class Exchanges {
  readonly list: Exchange[] = [];
  readonly #isRetryingDeadNode: boolean;
  #onGet: Array<(node: string) => void> = [];
  readonly #inFlight = new Set<Promise<Response>>();

  constructor(options: { isRetryingDeadNode?: boolean } = {}) {
    this.#isRetryingDeadNode = options.isRetryingDeadNode ?? false;
  }

  readonly fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const exchange = this.#exchange(new Request(input, init));
    this.#inFlight.add(exchange);
    const forget = (): boolean => this.#inFlight.delete(exchange);
    exchange.then(forget, forget);
    return exchange;
  };

  /** Resolves once every exchange begun so far was answered (a client may settle a call before its answer's POST got its 202). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
  }

  /** The node of the client's GET stream, once the proxy answered it. */
  getStreamNode(): Promise<string> {
    const open = this.list.find((exchange) => exchange.method === 'GET' && exchange.status === 200);
    if (open !== undefined) return Promise.resolve(open.node);
    return new Promise((resolve) => this.#onGet.push(resolve));
  }

  async #exchange(request: Request): Promise<Response> {
    const body = request.method === 'POST' ? await request.clone().text() : '';
    let response = await fetch(request.clone());
    for (
      let turn = 1;
      this.#isRetryingDeadNode && isProxyRefusal(response) && turn < DEAD_NODE_TURNS;
      turn++
    ) {
      await response.body?.cancel();
      response = await fetch(request.clone());
    }
    const node = response.headers.get(NODE_HEADER) ?? '';
    this.list.push({ method: request.method, body, status: response.status, node });
    if (request.method === 'GET' && response.status === 200) for (const resolve of this.#onGet) resolve(node);
    return response;
  }
}

/** HAProxy's own 503: no node answered, so the proxy named none. */
function isProxyRefusal(response: Response): boolean {
  return response.status === 503 && !response.headers.has(NODE_HEADER);
}
