import { LRUCache } from 'lru-cache';
import type { PageCapture } from './page-capture-options.ts';

/** How much the cache of captured pages may hold, and for how long at most. */
export interface PageCaptureCacheOptions {
  /** Total bytes of the kept screenshots (PNG as Chromium produced them). */
  maxBytes: number;
  /** Longest a screenshot is reused; a request's own `cache_ttl` can only shorten it. */
  maxAgeMs: number;
}

/**
 * The capture-level cache: screenshots of pages already loaded, by the target and browser fields
 * that made them (and the account that asked), so another look of the same page costs a compose
 * and an encode instead of a page load. In memory, bounded by bytes and age; a process that does
 * not have a page captures it again (correct, only slower).
 */
export interface PageCaptureCache {
  get(key: string): PageCapture | undefined;
  set(key: string, capture: PageCapture, ttlMs: number): void;
}

export function createPageCaptureCache(options: PageCaptureCacheOptions): PageCaptureCache {
  const entries = new LRUCache<string, PageCapture>({
    maxSize: options.maxBytes,
    // A screenshot larger than the whole budget is simply not kept.
    maxEntrySize: options.maxBytes,
    // A scroll video's capture also holds the page without its pinned parts and their shots.
    sizeCalculation: (capture) =>
      Math.max(
        1,
        capture.png.length +
          (capture.scroll?.unpinnedPng?.length ?? 0) +
          (capture.scroll?.layers.reduce((sum, layer) => sum + layer.png.length, 0) ?? 0),
      ),
    ttl: options.maxAgeMs,
    ttlAutopurge: false,
  });
  return {
    get: (key) => entries.get(key),
    set(key, capture, ttlMs) {
      const ttl = Math.min(ttlMs, options.maxAgeMs);
      if (ttl <= 0 || options.maxBytes <= 0) return;
      entries.set(key, capture, { ttl });
    },
  };
}
