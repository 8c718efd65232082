import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, parseRetryAfter, retryDelayMs, sleep } from './retry.ts';

const options = { retries: 3, baseDelayMs: 500, maxDelayMs: 10_000 };

describe('retry delays', () => {
  it("waits the server's retry_after plus a bounded jitter, never less", () => {
    expect(retryDelayMs(1, 2, options, () => 0)).toBe(2000);
    expect(retryDelayMs(1, 2, options, () => 1)).toBe(2200);
    expect(retryDelayMs(1, 0, options, () => 1)).toBe(100);
  });

  it('backs off exponentially with full jitter, capped, when the server says nothing', () => {
    expect(retryDelayMs(1, undefined, options, () => 1)).toBe(500);
    expect(retryDelayMs(3, undefined, options, () => 1)).toBe(2000);
    expect(retryDelayMs(3, undefined, { ...options, retries: 10 }, () => 0.5)).toBe(1000);
    expect(retryDelayMs(10, undefined, { ...options, retries: 10 }, () => 1)).toBe(10_000);
  });

  it('stops after the allowed retries, and when retry_after is longer than the longest wait', () => {
    expect(retryDelayMs(4, undefined, options)).toBeUndefined();
    expect(retryDelayMs(1, 60, options)).toBeUndefined();
    expect(retryDelayMs(1, undefined, { ...DEFAULT_RETRY, retries: 0 })).toBeUndefined();
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = new Date('2026-11-28T10:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Sat, 28 Nov 2026 10:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Sat, 28 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('stops waiting when its signal aborts', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    await expect(sleep(10, AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });
});
