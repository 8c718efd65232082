import type { RateLimitBucket } from '@vitrine/contract';
import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { AppError } from '../errors/app-error.ts';

export interface RateLimitConfig {
  capturePerMinute: number;
  defaultPerMinute: number;
  deviceCodePerMinute: number;
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * Fixed one-minute windows per bucket and subject (API key, or client IP for anonymous calls),
 * kept in Redis when configured so every process shares one count.
 */
export function createRateLimiter(config: RateLimitConfig, redis: Redis | undefined, prefix = 'vitrine') {
  const points: Record<Exclude<RateLimitBucket, 'none'>, number> = {
    capture: config.capturePerMinute,
    default: config.defaultPerMinute,
    device_code: config.deviceCodePerMinute,
  };
  const limiters = new Map<string, RateLimiterAbstract>();
  for (const [bucket, limit] of Object.entries(points)) {
    const options = { keyPrefix: `${prefix}_rl_${bucket}`, points: limit, duration: 60 };
    limiters.set(
      bucket,
      redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: redis,
            useRedisPackage: false,
            // While Redis is down each process counts on its own (issue 41): requests go on
            // being limited and answered instead of all failing with Redis.
            insuranceLimiter: new RateLimiterMemory(options),
          })
        : new RateLimiterMemory(options),
    );
  }

  return {
    /** Counts one request; throws 429 `rate_limited` when the window is used up. */
    async consume(bucket: Exclude<RateLimitBucket, 'none'>, subject: string): Promise<RateLimitState> {
      const limiter = limiters.get(bucket)!;
      const limit = points[bucket];
      try {
        const res = await limiter.consume(subject);
        return { limit, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        throw new AppError(
          'rate_limited',
          `Rate limit of ${limit} requests per minute reached; retry in ${retryAfter} s`,
          {
            retryAfter,
            details: { limit, window_seconds: 60 },
          },
        );
      }
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
