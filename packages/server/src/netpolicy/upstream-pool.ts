import http from 'node:http';
import type { Duplex } from 'node:stream';
import { type Dialer, dialChecked } from './egress-dialer.ts';

/**
 * What a plain-HTTP request through the egress proxy goes to: the name the page asked for and
 * the addresses the policy checked for this very request (never a name to resolve again).
 */
export interface CheckedUpstream {
  hostname: string;
  port: number;
  addresses: readonly string[];
}

export interface UpstreamPoolOptions {
  dial: Dialer;
  /** The signal a new connection's dial gets (the proxy's closing plus its connect timeout). */
  connectSignal(): AbortSignal;
  /** Told of each connection opened (to count and log) and each that could not be opened. */
  onOpened(socket: Duplex, upstream: CheckedUpstream, address: string): void;
  onFailed(upstream: CheckedUpstream, error: unknown): void;
  /** How long an idle kept connection waits for the next request (a server's shorter hint wins). */
  idleKeepMs: number;
}

/** The request options' own field that carries the checked upstream to `createConnection`. */
const UPSTREAM = Symbol('checked upstream');
type PoolRequestOptions = http.RequestOptions & { [UPSTREAM]: CheckedUpstream };

/**
 * Keep-alive connections for the egress proxy's plain-HTTP requests. Every request is still
 * resolved and checked by the policy before it gets here (so the boundary is per request, as
 * before); a kept connection is reused only by a request for the same name and port whose check
 * gave the same addresses, so it is always connected to an address checked for that request.
 * Saves a TCP connect and close per request of a page (a template loads 20-40 files).
 */
export class UpstreamPool {
  readonly #agent: http.Agent;

  constructor(options: UpstreamPoolOptions) {
    this.#agent = new (class extends http.Agent {
      override getName(requestOptions: http.ClientRequestArgs): string {
        const upstream = (requestOptions as PoolRequestOptions)[UPSTREAM];
        return `${upstream.hostname}|${upstream.port}|${upstream.addresses.join(',')}`;
      }
    })({ keepAlive: true, timeout: options.idleKeepMs, maxFreeSockets: 32, scheduling: 'lifo' });
    // Node's Agent takes a `createConnection(options, callback)` that answers through the
    // callback, which lets the dial be asynchronous (and injectable, as the tests need).
    (this.#agent as unknown as { createConnection: unknown }).createConnection = (
      requestOptions: PoolRequestOptions,
      callback: (error: Error | null, socket?: Duplex) => void,
    ) => {
      const upstream = requestOptions[UPSTREAM];
      void dialChecked(options.dial, upstream, options.connectSignal()).then(
        ({ socket, address }) => {
          options.onOpened(socket, upstream, address);
          callback(null, socket);
        },
        (error: Error) => {
          options.onFailed(upstream, error);
          callback(error);
        },
      );
      return undefined;
    };
  }

  /** A request to `upstream` on a kept connection, or a new one (see the class). */
  request(upstream: CheckedUpstream, options: http.RequestOptions): http.ClientRequest {
    const poolOptions: PoolRequestOptions = {
      ...options,
      host: upstream.addresses[0],
      port: upstream.port,
      agent: this.#agent,
      [UPSTREAM]: upstream,
    };
    return http.request(poolOptions);
  }

  /** Closes every kept and active connection. */
  destroy(): void {
    this.#agent.destroy();
  }
}
