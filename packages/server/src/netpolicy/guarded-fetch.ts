import type { Duplex } from 'node:stream';
import { Agent, buildConnector, request } from 'undici';
import { AppError } from '../errors/app-error.ts';
import type { TargetPolicy } from './target-policy.ts';
import { isNetworkFailure, targetUnreachable } from './target-unreachable.ts';

export interface GuardedFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Largest accepted response body; more fails with `capture_failed` / `too_large`. */
  maxBytes: number;
  /** Deadline for the whole exchange: DNS, connect, headers and body. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Request field named in refusal messages (e.g. `background_image_url`; default `url`). */
  field?: string;
}

export interface GuardedResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** The URL fetched (never another one: redirects are returned, not followed). */
  url: string;
}

/** A server-side request that only ever connects to addresses the policy checked. */
export type GuardedFetch = (url: string | URL, options: GuardedFetchOptions) => Promise<GuardedResponse>;

export interface GuardedFetchSettings {
  /** TLS and socket options for the connector (e.g. `ca` in tests); the host is never taken from here. */
  connect?: buildConnector.BuildOptions;
  /**
   * Opens the socket to an address that already passed the policy (default: undici's connector
   * built from `connect`). Tests stub it to prove nothing beyond loopback is ever dialled.
   */
  socketConnector?: buildConnector.connector;
}

/** undici's socket connector (HTTP/1.1 only), the default opener once an address was checked. */
export function buildSocketConnector(options: buildConnector.BuildOptions = {}): buildConnector.connector {
  return buildConnector({ ...options, allowH2: false });
}

/** True for the `too_large` failure of a guarded fetch. */
export function isTooLarge(error: unknown): boolean {
  return error instanceof AppError && error.details?.reason === 'too_large';
}

function tooLarge(field: string, maxBytes: number): AppError {
  return new AppError('capture_failed', `${field} returned more than ${maxBytes} bytes.`, {
    details: { reason: 'too_large', limit_bytes: maxBytes },
  });
}

function connectOnce(base: buildConnector.connector, options: buildConnector.Options): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    base(options, (error, socket) => (error ? reject(error) : resolve(socket as Duplex)));
  });
}

/**
 * A connector that resolves the host once through the policy, checks every address and the
 * port, and connects to a checked IP. `host` (and so SNI, certificate check and the Host header)
 * keeps the name; only the address the socket goes to is replaced.
 */
function checkedConnector(
  policy: TargetPolicy,
  field: string,
  signal: AbortSignal,
  settings: GuardedFetchSettings,
): buildConnector.connector {
  const base = settings.socketConnector ?? buildSocketConnector(settings.connect);
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    void (async () => {
      const addresses = await policy.resolveChecked(options.hostname, port, { field, signal });
      let lastError: unknown;
      for (const address of addresses) {
        if (signal.aborted) break;
        try {
          return await connectOnce(base, { ...options, hostname: address });
        } catch (error) {
          lastError = error;
        }
      }
      throw targetUnreachable(signal.aborted ? signal.reason : lastError);
    })().then(
      (socket) => callback(null, socket as Parameters<buildConnector.Callback>[1] & object),
      (error: Error) => callback(error, null),
    );
  };
}

type ResponseBody = AsyncIterable<Buffer> & {
  destroy(error?: Error): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
};

/**
 * Stops reading a response body we refuse. undici's body emits a "request aborted" error when it
 * is destroyed before its end; with no listener that error would be uncaught (and whether it
 * comes depends on how much of the body had arrived), so it is listened to and dropped.
 */
function discard(body: ResponseBody): void {
  body.on('error', () => undefined);
  body.destroy();
}

async function readCapped(body: ResponseBody, maxBytes: number, field: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > maxBytes) {
      discard(body);
      throw tooLarge(field, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Builds the fetch for server-side requests (background images, webhooks, brand extraction):
 * the same resolve-check-connect as the egress proxy, no redirects followed (a 3xx is returned
 * as is; follow one only by calling again, which checks again), a byte cap and a deadline. Every
 * network failure, timeouts included, is the one `target_unreachable` error.
 */
export function createGuardedFetch(policy: TargetPolicy, settings: GuardedFetchSettings = {}): GuardedFetch {
  return async (input, options) => {
    const field = options.field ?? 'url';
    const url = policy.parseUrl(String(input), { field, allowBareHost: false });
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    const agent = new Agent({
      connect: checkedConnector(policy, field, signal, settings),
      connections: 1,
      pipelining: 0,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    const headers = Object.fromEntries(
      Object.entries(options.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'host'),
    );
    try {
      const response = await request(url, {
        dispatcher: agent,
        method: (options.method ?? 'GET') as 'GET',
        headers,
        body: options.body ?? null,
        signal,
      });
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        discard(response.body);
        throw tooLarge(field, options.maxBytes);
      }
      const body = await readCapped(response.body, options.maxBytes, field);
      const responseHeaders: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) responseHeaders[name] = value;
      }
      return { status: response.statusCode, headers: responseHeaders, body, url: url.href };
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (error instanceof AppError) throw error;
      if (deadline.aborted || isNetworkFailure(error)) throw targetUnreachable(error);
      throw error;
    } finally {
      await agent.destroy().catch(() => undefined);
    }
  };
}
