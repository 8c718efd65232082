import { CAPTURE_LIMITS } from '@vitrine/contract';

/**
 * The capture stage's fixed limits, in one place (not settings of the environment): how long a
 * capture waits for a `wait_for` selector (the contract's limit), for web fonts and for images
 * still loading after a full-page scroll, and the largest capture in device pixels. The stage
 * applies them under whatever its caller passes (tests pass shorter waits).
 */
export const PAGE_CAPTURE_DEFAULTS = {
  selectorWaitMs: CAPTURE_LIMITS.selectorWaitMs,
  fontWaitMs: 5000,
  lazyImageWaitMs: 3000,
  maxCapturePixels: 64_000_000,
} as const;
