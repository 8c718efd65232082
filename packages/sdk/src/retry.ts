/** How a client retries answers that say "try again later" (429 and 503). */
export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retrying off. */
  retries: number;
  /** The first backoff when the server gives no `retry_after`; it doubles per retry. */
  baseDelayMs: number;
  /** No single wait is longer: a `retry_after` beyond it is not waited for, the error is thrown. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { retries: 3, baseDelayMs: 500, maxDelayMs: 30_000 };

/** The statuses worth another attempt: the request was not processed and may succeed later. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Milliseconds to wait before retry number `retry` (1-based), or undefined when no retry should
 * be made. With `retryAfterSeconds` (the server's `retry_after` or `Retry-After`) the wait is
 * that, plus up to a tenth of it (at least 100 ms) of jitter so that many clients told the same
 * time do not return at once; without it, "full jitter" exponential backoff: a random wait up
 * to `baseDelayMs * 2^(retry-1)`, capped at `maxDelayMs`.
 */
export function retryDelayMs(
  retry: number,
  retryAfterSeconds: number | undefined,
  options: RetryOptions,
  random: () => number = Math.random,
): number | undefined {
  if (retry > options.retries) return undefined;
  if (retryAfterSeconds !== undefined) {
    const wait = retryAfterSeconds * 1000;
    const delay = wait + random() * Math.max(100, wait / 10);
    return delay > options.maxDelayMs ? undefined : delay;
  }
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return random() * ceiling;
}

/**
 * Seconds from a `Retry-After` header: delay-seconds, or an HTTP date (then counted from `now`).
 * Undefined when absent or unreadable.
 */
export function parseRetryAfter(header: string | null, now: Date = new Date()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
