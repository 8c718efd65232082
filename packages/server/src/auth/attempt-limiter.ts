import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';

export interface AttemptLimiterOptions {
  /** Distinguishes this limiter's keys from every other one's. */
  name: string;
  /** Failures allowed per window; the next attempt is refused until the window ends. */
  failures: number;
  windowSeconds: number;
  redis: Redis | undefined;
  prefix: string;
}

/**
 * Counts failed attempts (wrong passwords, wrong device codes) per subject in a fixed window,
 * in Redis when configured so every process shares the count. Only failures count, so a user
 * who gets it right is never held up by their own successes.
 */
export function createAttemptLimiter(options: AttemptLimiterOptions) {
  const settings = {
    keyPrefix: `${options.prefix}_attempts_${options.name}`,
    points: options.failures,
    duration: options.windowSeconds,
  };
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({ ...settings, storeClient: options.redis, useRedisPackage: false })
    : new RateLimiterMemory(settings);

  return {
    /** Seconds until the subject may try again; 0 when it may try now. */
    async retryAfter(subject: string): Promise<number> {
      const state = await limiter.get(subject);
      if (!state || state.consumedPoints < options.failures) return 0;
      return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    },
    async fail(subject: string): Promise<void> {
      await limiter.penalty(subject, 1);
    },
    async clear(subject: string): Promise<void> {
      await limiter.delete(subject);
    },
  };
}

export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>;
