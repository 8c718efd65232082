/**
 * The raster renderer's cache: what does not depend on the screenshot (backgrounds at canvas
 * size, shadow masks, pages the browser renderer rendered) kept between renders in a small
 * least-recently-used map. The composition root creates one per process and passes it to every render.
 */
import type { RawImage } from './raster/pixels.ts';
import type { ShadowMask } from './raster/shadow.ts';

/**
 * What does not depend on the screenshot, kept between renders: backgrounds at canvas size and
 * shadow masks, keyed by their parameters; least recently used entries are dropped first.
 * Create one per process (or per worker) and pass it to every render.
 */
export interface ComposeCache {
  get<T extends RawImage | ShadowMask>(key: string): Promise<T> | undefined;
  set<T extends RawImage | ShadowMask>(key: string, value: Promise<T>): void;
  readonly size: number;
}

export function createComposeCache(maxEntries = 48): ComposeCache {
  const entries = new Map<string, Promise<RawImage | ShadowMask>>();
  return {
    get<T>(key: string) {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
      }
      return hit as Promise<T> | undefined;
    },
    set(key, value) {
      entries.set(key, value);
      value.catch(() => entries.delete(key));
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
    get size() {
      return entries.size;
    },
  };
}
