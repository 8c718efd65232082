import {
  DEFAULT_RETRY,
  parseRetryAfter,
  RETRYABLE_STATUSES,
  type RetryOptions,
  retryDelayMs,
  sleep,
} from './retry.ts';
import type { ErrorEnvelope } from './types.ts';
import { VitrineError } from './vitrine-error.ts';

export interface TransportOptions {
  /** The server's origin, e.g. `https://vitrine.example.com` (no `/v1`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; public routes work without one. */
  apiKey?: string | undefined;
  /** Milliseconds one attempt may take (a synchronous capture takes seconds). Default 120 000. */
  timeoutMs?: number;
  /** Retries of 429 and 503 answers; `false` turns them off. */
  retry?: Partial<RetryOptions> | false;
  userAgent?: string;
  /** Another fetch (a proxy agent, a test's recorder); the global one by default. */
  fetch?: typeof fetch;
}

export interface SendOptions {
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  /** Aborts the call, including a wait between retries. */
  signal?: AbortSignal | undefined;
  /** This call's own limit per attempt, instead of the transport's `timeoutMs`. */
  timeoutMs?: number | undefined;
  /** Extra request headers (e.g. `idempotency-key`). */
  headers?: Record<string, string> | undefined;
}

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** Query values as the API reads them: lists comma-separated (`style: form, explode: false`). */
export function queryString(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    search.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function isEnvelope(value: unknown): value is ErrorEnvelope {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}

/** An HTTP client of the API: JSON in and out, the error envelope as VitrineError, retries. */
export class HttpTransport {
  readonly baseUrl: string;
  private readonly options: TransportOptions;
  private readonly retry: RetryOptions;

  constructor(options: TransportOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retry =
      options.retry === false ? { ...DEFAULT_RETRY, retries: 0 } : { ...DEFAULT_RETRY, ...options.retry };
  }

  /** One call of the API, retried after 429 and 503 as `retry` allows. */
  async send<T>(method: string, path: string, options: SendOptions = {}): Promise<Answer<T>> {
    for (let retry = 1; ; retry += 1) {
      try {
        return await this.attempt<T>(method, path, options);
      } catch (error) {
        // `slow_down` (device login) asks the poller to lengthen its own interval: its call, not ours.
        if (
          !(error instanceof VitrineError) ||
          !RETRYABLE_STATUSES.has(error.status) ||
          error.code === 'slow_down'
        ) {
          throw error;
        }
        const delay = retryDelayMs(retry, error.retryAfter, this.retry);
        if (delay === undefined) throw error;
        await sleep(delay, options.signal);
      }
    }
  }

  private async attempt<T>(method: string, path: string, options: SendOptions): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (this.options.userAgent) headers['user-agent'] = this.options.userAgent;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const timeout = AbortSignal.timeout(options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(`${this.baseUrl}${path}${queryString(options.query)}`, {
        method,
        headers,
        // The key goes to this server only: an answer that redirects elsewhere is an error.
        redirect: 'error',
        signal,
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.aborted) {
        throw new VitrineError('timeout', `${method} ${path} did not answer in time`, { cause: error });
      }
      throw new VitrineError('network_error', `Cannot reach ${this.baseUrl}`, { cause: error });
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const requestId = response.headers.get('x-request-id') ?? undefined;
    if (!response.ok) {
      if (!isEnvelope(body)) {
        throw new VitrineError('unexpected_response', `${method} ${path} answered ${response.status}`, {
          status: response.status,
          retryAfter: parseRetryAfter(response.headers.get('retry-after')),
          requestId,
        });
      }
      const { code, message, details, retry_after } = body.error;
      throw new VitrineError(code, message, {
        status: response.status,
        retryAfter: retry_after ?? parseRetryAfter(response.headers.get('retry-after')),
        details,
        requestId,
      });
    }
    if (body === undefined) {
      throw new VitrineError('unexpected_response', `${method} ${path} answered without a JSON body`, {
        status: response.status,
        requestId,
      });
    }
    return { status: response.status, body: body as T, headers: response.headers };
  }
}
